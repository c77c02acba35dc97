//! The reports' sentences as the site shows them (the notes under a
//! table, a note or a reason in a cell, the director's decisions), said in
//! the page's language.
//!
//! The reports say every sentence in English, from its English words
//! ([`Sentence`], [`Sentence::en`]); the site is given the
//! tables the export makes, so it finds each sentence again here: a text
//! that matches a sentence's English words, its parts where the `{}` are,
//! is said with the same sentence's words in the page's language, each
//! part said the same way (a stage, a status, a sentence within the
//! sentence). A text that matches none is shown as written (names, ids,
//! numbers). English pages show the export's text as it is. As every
//! sentence is made from the one table, none can be worded one way by a
//! report and another way here (`every_sentence_is_found_again` checks
//! each).

use super::words::{fill, Lang, Sentence, Words, EN};

/// The sentences' words in `w`, in the same order for every language:
/// [`Sentence::ALL`], then the standings' order line and its keys (of the
/// words that begin with `{}`, the first that matches is taken, so that
/// `{}, then {}` comes before `{} ({} first)`, and `{}; {}`, which any
/// text with a semicolon matches, is last of the sentences).
fn templates(w: &'static Words) -> Vec<&'static str> {
    let mut t: Vec<&'static str> = Sentence::ALL.iter().map(|s| s.words(w.lang)).collect();
    t.extend([
        w.order,
        w.sort_key,
        w.key_won,
        w.key_average,
        w.key_total,
        w.key_average_penalty,
        w.key_total_penalty,
        w.key_tiles,
        w.key_best,
        w.more,
        w.fewer,
        w.higher,
        w.lower,
    ]);
    t
}

/// The parts of `text` that fill the `{}` of `template`, if it matches:
/// each literal piece found at its first place after the one before.
fn parts<'t>(template: &str, text: &'t str) -> Option<Vec<&'t str>> {
    let pieces: Vec<&str> = template.split("{}").collect();
    let (first, rest) = pieces.split_first()?;
    let Some((last, middle)) = rest.split_last() else {
        return (template == text).then(Vec::new);
    };
    let mut left = text.strip_prefix(first)?;
    let mut out = Vec::new();
    for piece in middle {
        let at = left.find(piece)?;
        out.push(&left[..at]);
        left = &left[at + piece.len()..];
    }
    out.push(left.strip_suffix(last)?);
    Some(out)
}

/// `text`, which the export wrote, in `lang`'s words.
pub fn say(lang: Lang, text: &str) -> String {
    if lang == Lang::En {
        return text.to_string();
    }
    said(lang.words(), text, 0)
}

fn said(w: &'static Words, text: &str, depth: usize) -> String {
    // (a sentence within a sentence within a sentence is as deep as the
    // export's go)
    if depth > 8 {
        return text.to_string();
    }
    // Templates that begin with words first (`Order: {}.` before
    // `{}, then {}`): of those, the one of the most words first
    // (`PROVISIONAL: {} (see the Missing sheet)` before `PROVISIONAL:
    // {}`); then the others in the table's order.
    // (each with the places where it takes a list: a sentence's)
    let lists = Sentence::ALL
        .iter()
        .map(|s| s.lists())
        .chain(std::iter::repeat(&[][..]));
    let pairs: Vec<(&str, &str, &[usize])> = templates(&EN)
        .into_iter()
        .zip(templates(w))
        .zip(lists)
        .map(|((en, here), lists)| (en, here, lists))
        .collect();
    let mut anchored: Vec<&(&str, &str, &[usize])> = pairs
        .iter()
        .filter(|(en, ..)| !en.starts_with("{}"))
        .collect();
    anchored.sort_by_key(|(en, ..)| std::cmp::Reverse(en.len() - 2 * en.matches("{}").count()));
    let loose = pairs.iter().filter(|(en, ..)| en.starts_with("{}"));
    for (en, here, lists) in anchored.into_iter().chain(loose) {
        if let Some(parts) = parts(en, text) {
            // A list's items are ids and names, never a clause: a list
            // that holds a `; ` took in the next sentence of a `{}; {}`
            // (`..., 12 (F001, F002); one member ..., 1 (F013)`), which
            // is said part by part instead.
            if lists
                .iter()
                .any(|&i| parts.get(i).is_some_and(|p| p.contains("; ")))
            {
                continue;
            }
            // a list is said item by item, and joined in the page's words
            let parts: Vec<String> = parts
                .iter()
                .enumerate()
                .map(|(i, p)| match lists.contains(&i) {
                    true => w.lang.list(
                        p.split(Lang::En.list_separator())
                            .map(|item| said(w, item, depth + 1)),
                    ),
                    false => said(w, p, depth + 1),
                })
                .collect();
            let args: Vec<&dyn std::fmt::Display> =
                parts.iter().map(|p| p as &dyn std::fmt::Display).collect();
            return fill(here, &args);
        }
    }
    // a stage or a status, in words; anything else as written
    let stage = w.stage(text);
    if stage != text {
        return stage.to_string();
    }
    w.cell(text).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::places;

    #[test]
    fn every_language_has_a_template_for_every_sentence() {
        let en = templates(&EN);
        for lang in Lang::ALL {
            let here = templates(lang.words());
            assert_eq!(here.len(), en.len(), "{lang}: said");
            for (e, h) in en.iter().zip(&here) {
                let parts = |words: &str| {
                    let mut p: Vec<usize> = places(words).iter().map(|p| p.2).collect();
                    p.sort_unstable();
                    p
                };
                assert_eq!(
                    parts(e),
                    parts(h),
                    "{lang}: {e:?} and {h:?} take different parts"
                );
                // (the English is what is matched: its parts in order)
                assert!(places(e).iter().enumerate().all(|(i, p)| p.2 == i), "{e:?}");
            }
        }
        // No two English templates are the same.
        let mut seen = std::collections::HashSet::new();
        for e in &en {
            assert!(seen.insert(e), "{e:?} twice");
        }
    }

    /// Every sentence, its parts data that matches nothing, is found
    /// again and said in the page's words, its parts as they were.
    #[test]
    fn every_sentence_is_found_again() {
        for sentence in Sentence::ALL {
            let en = sentence.words(Lang::En);
            let parts: Vec<String> = (0..en.matches("{}").count())
                .map(|i| format!("X{i}x"))
                .collect();
            let args: Vec<&dyn std::fmt::Display> =
                parts.iter().map(|p| p as &dyn std::fmt::Display).collect();
            let english = sentence.en(&args);
            for lang in Lang::ALL {
                let expected = fill(sentence.words(lang), &args);
                assert_eq!(say(lang, &english), expected, "{sentence:?} in {lang}");
            }
        }
    }

    /// A sentence's list is said in the page's words, each item as it
    /// is and joined as the page's language joins a list.
    #[test]
    fn every_list_is_joined_in_the_pages_words() {
        for sentence in Sentence::ALL {
            let en = sentence.words(Lang::En);
            let count = en.matches("{}").count();
            assert!(
                sentence.lists().iter().all(|&i| i < count),
                "{sentence:?} takes no list there"
            );
            let part = |i: usize, lang: Lang| match sentence.lists().contains(&i) {
                true => lang.list([format!("X{i}x"), format!("Y{i}y")]),
                false => format!("X{i}x"),
            };
            let english: Vec<String> = (0..count).map(|i| part(i, Lang::En)).collect();
            let args: Vec<&dyn std::fmt::Display> = english
                .iter()
                .map(|p| p as &dyn std::fmt::Display)
                .collect();
            for lang in Lang::ALL {
                let here: Vec<String> = (0..count).map(|i| part(i, lang)).collect();
                let expected: Vec<&dyn std::fmt::Display> =
                    here.iter().map(|p| p as &dyn std::fmt::Display).collect();
                assert_eq!(
                    say(lang, &sentence.en(&args)),
                    fill(sentence.words(lang), &expected),
                    "{sentence:?} in {lang}"
                );
            }
        }
    }

    #[test]
    fn the_exports_sentences_are_said_in_the_pages_words() {
        let zh = |t: &str| say(Lang::ZhHant, t);
        // a tie's players are a list, joined with 、 in Chinese
        let tie =
            Sentence::TieAtTableListed.en(&[&"table 6", &2, &"G16, G17", &"2nd highest total 40"]);
        assert_eq!(
            tie,
            "TIE at table 6: 2 players (G16, G17) share the 2nd highest total 40; all of them are listed as going on until the director names who goes on (--player), or sets table_ties = \"all\""
        );
        assert_eq!(
            zh(&tie),
            "第 6 枱同分：2 名選手（G16、G17）同為第 2 高總分 40；在裁判長指定晉級者之前，全部列為晉級"
        );
        let named = Sentence::TieAtTableNamed.en(&[
            &"table 6",
            &3,
            &"G16, G17, G18",
            &"2nd highest total 40",
            &"G16, G18",
        ]);
        assert_eq!(
            zh(&named),
            "第 6 枱同分：3 名選手（G16、G17、G18）同為第 2 高總分 40；裁判長指定 G16、G18"
        );
        assert_eq!(
            zh("Order: games won (more first), then average score (higher first), then tiles left (fewer first)."),
            "排名次序：勝局（多者優先），其次平均得分（高者優先），其次餘牌（少者優先）。"
        );
        assert_eq!(
            zh("tie at cutoff, shared rank 120"),
            "晉級線同分，並列第 120 名"
        );
        assert_eq!(
            zh("lowest total at table 6 with 36 (shared), named by the director to settle a tie"),
            "第 6 枱最低總分 36（並列），由裁判長指定以解決同分"
        );
        // a later stage's table names its stage; a session its session
        assert_eq!(
            zh("lowest total at semi table 2 with 18"),
            "準決賽第 2 枱最低總分 18"
        );
        assert_eq!(
            zh("table winner at table 3 (session S02) with +45 (shared)"),
            "第 3 枱（場次 S02）勝出，總分 +45（並列）"
        );
        assert_eq!(
            zh("best second: 3 behind the winner of semi table 1 (session S02)"),
            "最佳次名：落後 3 分（準決賽第 1 枱（場次 S02）勝出者）"
        );
        assert_eq!(
            zh("2nd lowest total at table 1 with 12 (shared)"),
            "第 2 低總分（第 1 枱）12（並列）"
        );
        assert_eq!(
            zh("PROVISIONAL: 3 cards missing; shared rank 7"),
            "暫定：欠交 3 張計分卡；並列第 7 名"
        );
        assert_eq!(
            zh("Group 80+: no medal yet: no one is ranked in the final yet"),
            "80+組：暫無獎牌：決賽尚未有排名"
        );
        // Every decision the director may see, in Chinese.
        for english in [
            "5 table winners (X01, X04, X07, X10, X13) for 4 championship seats: all are listed as going on; table_ties = \"all\": they all play the championship",
            "TIE FOR THE LAST seats: 3 seconds (A, B, C) are each 4 behind their winners, for 2 seats; the director named A (1 of 2); name exactly 2",
            "TIE FOR THE LAST seat: 2 seconds (A, B) are each 4 behind their winners, for 1 seat; the director named B",
            "only 3 players go on to the 4 championship seats (a winner and a second from each table); table_ties = \"all\": the seats stay empty",
            "P0007 played at 2 tables of the stage (table 1, table 3); each table was judged on its own",
            "P0007 was named but is in no tie: it changes nothing",
            "Group 50-64: not awarded: Silver, Bronze (ties took the place, or too few players)",
            "14 families are not eligible for the award: neither member qualified for the final, 12 (F001, F002, …); one member did not qualify for the final, 1 (F013); a member has no ranked result in the final, 1 (F014).",
            "1 family is not a unit: only one roster entry has the family id, 1 (G99).",
        ] {
            let said = zh(english);
            let words: Vec<&str> = said.split_whitespace().collect();
            assert!(
                !words.windows(3).any(|w| w.iter().all(|w| w.chars().all(|c| c.is_ascii_lowercase()))),
                "{english:?} is said {said:?}"
            );
        }
        assert_eq!(
            zh("P0007 played at 2 tables of the stage (table 1, table 3); each table was judged on its own"),
            "P0007 在此階段於 2 張枱比賽（第 1 枱、第 3 枱）；每枱各自計算"
        );
        // a tie at a table names the settings file the rules were read from
        assert_eq!(
            zh("TIE at table 6: 2 players (G16, G17) share the lowest total 20; all of them go on, unless the director names who goes on (--player, or in gw/tilerank.toml: [qualifiers] named for the first stage, [stages.NAME] named for a later one)"),
            "第 6 枱同分：2 名選手（G16、G17）同為最低總分 20；除非裁判長指定晉級者（--player，或在 gw/tilerank.toml 中：首階段用 [qualifiers] named，其後的階段用 [stages.NAME] named），否則全部晉級"
        );
        assert_eq!(
            zh("Families F1, F5 tie for the Super Family Award: a tie for the best is reported, not broken."),
            "家庭 F1、F5 同分並列超級家庭獎首位：同分只作報告，不作拆分。"
        );
        assert_eq!(
            zh("Group 50-64: not awarded: Silver, Bronze (ties took the place, or too few players)"),
            "50-64組：未頒發：銀牌、銅牌（名次因同分而被佔，或人數不足）"
        );
        // Data is shown as written; English pages as the export says it.
        assert_eq!(zh("P0001"), "P0001");
        assert_eq!(
            say(Lang::En, "tie at cutoff, shared rank 120"),
            "tie at cutoff, shared rank 120"
        );
        assert_eq!(
            parts("{} and {}", "a and b and c"),
            Some(vec!["a", "b and c"])
        );
        assert_eq!(parts("x {}", "y"), None);
    }
}
