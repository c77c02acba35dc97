//! The languages tilerank speaks on pages and to a referee's phone
//! (`--lang`; a request's `Accept-Language`): the words of each are in
//! the reports' tables (`report::words`) and the checks' messages'
//! (`problem::said`).

use std::fmt;
use std::str::FromStr;

/// The language of the pages (`--lang`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    /// Traditional Chinese, as in Hong Kong and Taiwan.
    ZhHant,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::ZhHant];

    /// The language's place in [`Lang::ALL`].
    pub fn index(self) -> usize {
        match self {
            Lang::En => 0,
            Lang::ZhHant => 1,
        }
    }

    /// The language tag of `<html lang>` and of `--lang`.
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::ZhHant => "zh-Hant",
        }
    }
}

impl Lang {
    /// Known stage names (as the event's settings write them) in this
    /// language's words: what the pages and a referee's phone say.
    pub const fn stages(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Lang::En => &[
                ("prelim", "prelim"),
                ("semi", "semi-final"),
                ("final", "final"),
            ],
            Lang::ZhHant => &[("prelim", "初賽"), ("semi", "準決賽"), ("final", "決賽")],
        }
    }

    /// Stage `stage` in this language's words, when it is a known one;
    /// else as written.
    pub fn stage(self, stage: &str) -> &str {
        self.stages()
            .iter()
            .find(|(n, _)| *n == stage)
            .map_or(stage, |(_, w)| w)
    }
}

impl Lang {
    /// The words between two items of a list in this language: `, ` in
    /// English, the enumeration comma `、` in Chinese.
    pub const fn list_separator(self) -> &'static str {
        match self {
            Lang::En => ", ",
            Lang::ZhHant => "、",
        }
    }

    /// `items` as a list in this language's words: `F1, F5` in English,
    /// `F1、F5` in Chinese. Every list a sentence takes is joined here.
    pub fn list<T: fmt::Display>(self, items: impl IntoIterator<Item = T>) -> String {
        use fmt::Write;
        let mut out = String::new();
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                out.push_str(self.list_separator());
            }
            let _ = write!(out, "{item}");
        }
        out
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(self.tag())
    }
}

impl FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Lang, String> {
        Lang::ALL
            .into_iter()
            .find(|l| l.tag().eq_ignore_ascii_case(s))
            .ok_or_else(|| format!("unknown language {s:?}: give en or zh-Hant"))
    }
}

/// A catalog of sentences: an enum of them, and each one's words in every
/// language, side by side, where `{}` is the place of the next part and
/// `{N}` of part N (from 0), for a language that says its parts in another
/// order ([`fill`]). A sentence without the words of a language does not
/// compile; `Name::ALL` lists them in order, `Name::words(lang)` gives
/// one's words. The reports' sentences (`report::words::Sentence`) and
/// the checks' messages (`problem::said::Msg`) are such catalogs.
macro_rules! catalog {
    ($(#[$meta:meta])* $vis:vis enum $Name:ident {
        $($(#[$doc:meta])* $name:ident => $en:literal, $zh:literal;)*
    }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        $vis enum $Name {
            $($(#[$doc])* $name,)*
        }

        impl $Name {
            /// Every one, in the order of the catalog.
            pub const ALL: &'static [$Name] = &[$($Name::$name,)*];

            /// Its words in `lang`, with the places of its parts.
            pub fn words(self, lang: $crate::lang::Lang) -> &'static str {
                match (self, lang) {
                    $(($Name::$name, $crate::lang::Lang::En) => $en,
                    ($Name::$name, $crate::lang::Lang::ZhHant) => $zh,)*
                }
            }
        }
    };
}
pub(crate) use catalog;

/// Where the parts go in `words`: each place's start, length, and the
/// part it takes (`{}` the next one, `{N}` part N).
pub fn places(words: &str) -> Vec<(usize, usize, usize)> {
    let mut out = Vec::new();
    let mut next = 0;
    let mut from = 0;
    while let Some(i) = words[from..].find('{') {
        let at = from + i;
        let Some(close) = words[at..].find('}') else {
            break;
        };
        let inside = &words[at + 1..at + close];
        let part = if inside.is_empty() {
            next += 1;
            Some(next - 1)
        } else {
            inside.parse().ok()
        };
        match part {
            Some(part) => {
                out.push((at, close + 1, part));
                from = at + close + 1;
            }
            None => from = at + 1,
        }
    }
    out
}

/// `words` with its places ([`places`]) filled by `parts`, each written by
/// `write`.
///
/// Chinese words set a number or a Latin word apart by a space (`全部為
/// {}`: `全部為 4`), and a Chinese part not (`全部為正確`): a space of the
/// words between a Chinese character and a part is left out when the
/// part's own character beside it is Chinese too. English words have no
/// Chinese character, and keep every space.
pub fn fill_with<P>(
    words: &str,
    parts: &[P],
    out: &mut String,
    mut write: impl FnMut(&P, &mut String),
) {
    let mut from = 0;
    // the last part written ends in a Chinese character
    let mut after_chinese = false;
    for (at, len, part) in places(words) {
        let text = between(&words[from..at], after_chinese);
        out.push_str(text);
        // a space of the words after a Chinese character, before the part
        let space = text
            .strip_suffix(' ')
            .is_some_and(|t| t.chars().next_back().is_some_and(chinese));
        let start = out.len();
        if let Some(p) = parts.get(part) {
            write(p, out);
        }
        let mut written = start..out.len();
        if space && out[written.clone()].chars().next().is_some_and(chinese) {
            out.remove(start - 1);
            written = start - 1..out.len();
        }
        after_chinese = out[written].chars().next_back().is_some_and(chinese);
        from = at + len;
    }
    out.push_str(between(&words[from..], after_chinese));
}

/// The words between two places (or after the last): without their
/// leading space when a Chinese part comes before it and a Chinese
/// character after it.
fn between(text: &str, after_chinese: bool) -> &str {
    match text.strip_prefix(' ') {
        Some(rest) if after_chinese && rest.chars().next().is_some_and(chinese) => rest,
        _ => text,
    }
}

/// A Chinese character: a Han ideograph, or Chinese punctuation (`，`,
/// `。`, `（`) and the full-width forms.
fn chinese(c: char) -> bool {
    matches!(c,
        '\u{2E80}'..='\u{2FDF}' // radicals
        | '\u{3000}'..='\u{303F}' // punctuation
        | '\u{3400}'..='\u{4DBF}' // extension A
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}' // compatibility ideographs
        | '\u{FF00}'..='\u{FFEF}' // full-width forms
        | '\u{20000}'..='\u{3FFFF}')
}

/// `words` with its places filled by `args`.
pub fn fill(words: &str, args: &[&dyn fmt::Display]) -> String {
    let mut out = String::with_capacity(words.len() + 16);
    fill_with(words, args, &mut out, |a, out| {
        use fmt::Write;
        let _ = write!(out, "{a}");
    });
    out
}

/// A catalog's sentence (its words in `lang` by `words`) takes the same
/// parts in every language, English's in order, and no language's words
/// are blank.
#[cfg(test)]
pub(crate) fn assert_same_parts(what: &str, words: impl Fn(Lang) -> &'static str) {
    let en = places(words(Lang::En));
    assert!(en.iter().enumerate().all(|(i, p)| p.2 == i), "{what}");
    for lang in Lang::ALL {
        let here = words(lang);
        let mut parts: Vec<usize> = places(here).iter().map(|p| p.2).collect();
        parts.sort_unstable();
        assert_eq!(parts, (0..en.len()).collect::<Vec<_>>(), "{lang}: {what}");
        assert!(!here.trim().is_empty(), "{lang}: {what}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_joins_a_list_in_its_own_way() {
        assert_eq!(Lang::En.list(["F1", "F5", "…"]), "F1, F5, …");
        assert_eq!(Lang::ZhHant.list(["F1", "F5", "…"]), "F1、F5、…");
        assert_eq!(Lang::ZhHant.list(["F1"]), "F1");
        assert_eq!(Lang::En.list(Vec::<&str>::new()), "");
    }

    #[test]
    fn parts_go_in_order_or_where_numbered() {
        assert_eq!(fill("{} and {}", &[&1, &"two"]), "1 and two");
        assert_eq!(fill("{1} before {0}", &[&1, &2]), "2 before 1");
        // a brace that is no place is kept, and a part not given is left out
        assert_eq!(fill("{x} {}", &[&3]), "{x} 3");
        assert_eq!(fill("{} {}", &[&3]), "3 ");
        assert_eq!(places("a {} b {2}"), vec![(2, 2, 0), (7, 3, 2)]);
    }

    #[test]
    fn chinese_words_set_apart_a_number_or_latin_word_but_no_chinese_one() {
        let all = "{}：全部為 {}。";
        assert_eq!(fill(all, &[&"核對", &"正確"]), "核對：全部為正確。");
        assert_eq!(fill(all, &[&"人數", &4]), "人數：全部為 4。");
        assert_eq!(
            fill(all, &[&"時間", &"2026-03-28T09:00:00Z"]),
            "時間：全部為 2026-03-28T09:00:00Z。"
        );
        // after a part as before it; a part of Latin words keeps its spaces
        assert_eq!(fill("{} 人全部晉級", &[&"三"]), "三人全部晉級");
        assert_eq!(fill("{} 人全部晉級", &[&3]), "3 人全部晉級");
        assert_eq!(fill("第 {} 名", &[&"十"]), "第十名");
        assert_eq!(
            fill("裁判長指定 {}", &[&"Chan Tai Man"]),
            "裁判長指定 Chan Tai Man"
        );
        assert_eq!(
            fill("裁判長指定 {}", &[&"陳大文 (P0001)"]),
            "裁判長指定陳大文 (P0001)"
        );
        assert_eq!(fill("{} 與 {}", &[&"P0001", &"陳大文"]), "P0001 與陳大文");
        // an empty part, and English words, are as they were
        assert_eq!(fill("全部為 {} 人", &[&""]), "全部為  人");
        assert_eq!(
            fill("Group {}: {}", &[&"少年", &"陳大文"]),
            "Group 少年: 陳大文"
        );
    }
}
