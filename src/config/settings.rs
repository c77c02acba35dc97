//! Every setting of the rules, declared once: its section and key, one line
//! of doc, what is allowed, how it is read from a file and how it is
//! written into one. The reader of `tilerank.toml` and of a rules file, the
//! template `tilerank init` writes, `tilerank profiles show`, the table of
//! settings in docs/formats.md and the command line's overrides all come
//! from [`SETTINGS`]. Adding a setting is one entry here.
//!
//! Two settings are tables rather than values: each stage's games,
//! carry-over, absent and named players (`[stages.NAME]`,
//! [`STAGE_SETTINGS`]) and the age groups
//! (`[[age_groups]]`); they are read by [`super`] with the same readers.

use crate::profile::vocabulary::{AgeGroup, Better, MedalNames, SortKey};
use crate::profile::{
    AgeScheme, CutoffTies, GoingOn, NoWinnerBy, PenaltyMode, Rules, Schedule, Scoring, TableTies,
};
use toml::de::DeValue;

/// One setting of the rules.
pub struct Setting {
    /// The file's section: `[rules]`, `[qualifiers]`, ...
    pub section: &'static str,
    pub key: &'static str,
    /// One line for the person who edits the file.
    pub doc: &'static str,
    /// The line of doc in Chinese (zh-Hant): what the site's Settings page
    /// says ([`doc_in`]).
    pub zh: &'static str,
    /// What is allowed, in words.
    pub allowed: &'static str,
    /// The value as TOML, or `None` when the rules leave it unset (the
    /// template then shows `example`, commented out).
    pub get: fn(&Rules) -> Option<String>,
    pub example: &'static str,
    /// Whether the setting plays a part under these rules (`top` only
    /// under the rule "top", the penalty mode only with a charge): the
    /// export's Settings sheet shows only those that do.
    pub applies: fn(&Rules) -> bool,
    /// Reads the value into the rules, or says what is wrong with it: what
    /// was expected (`expected 1 to 1000000`), which the reader says after
    /// the setting's place and the value as written.
    pub set: fn(&mut Rules, &DeValue) -> Result<(), String>,
}

/// The sections of a settings file, in the order files list them.
pub const SECTIONS: [&str; 7] = [
    "rules",
    "qualifiers",
    "sessions",
    "standings",
    "medals",
    "awards",
    "entry",
];

/// Every setting, section by section.
pub const SETTINGS: &[Setting] = &[
    Setting {
        section: "rules",
        key: "scoring",
        doc: "How a game is scored: \"zero_sum\" (the winner takes what the others lose; higher is better) or \"penalty_points\" (each player scores their rack; lower is better).",
        zh: "計分方式：\"zero_sum\"（零和：勝方取得其他人所失的分數；分數高者為佳）或 \"penalty_points\"（罰分：每人按牌架上的牌計分；分數低者為佳）。",
        allowed: "\"zero_sum\" or \"penalty_points\"",
        get: |r| Some(quote(choice_name(SCORING, r.scoring))),
        example: "",
        applies: always,
        set: |r, v| {
            r.scoring = choice(v, SCORING)?;
            Ok(())
        },
    },
    Setting {
        section: "rules",
        key: "joker_value",
        doc: "Points a joker left on the rack counts (25 and 50 at some events).",
        zh: "留在牌架上的百搭牌（Joker）所計的分數（部分比賽為 25 或 50）。",
        allowed: "a whole number from 0 to 1000000",
        get: |r| Some(r.joker_value.to_string()),
        example: "",
        applies: always,
        set: |r, v| {
            r.joker_value = points(v)?;
            Ok(())
        },
    },
    Setting {
        section: "rules",
        key: "no_meld",
        doc: "Penalty charge, in points, for a player who never made the initial meld, being unable to (0 for none).",
        zh: "從未能完成首次落牌的選手所罰的分數（0 為不罰）。",
        allowed: "a whole number from 0 to 1000000",
        get: |r| Some(r.penalties.no_meld.to_string()),
        example: "",
        applies: always,
        set: |r, v| {
            r.penalties.no_meld = points(v)?;
            Ok(())
        },
    },
    Setting {
        section: "rules",
        key: "refused_meld",
        doc: "Penalty charge for a player who could have melded and chose not to (0 for none).",
        zh: "能夠落牌卻選擇不落牌的選手所罰的分數（0 為不罰）。",
        allowed: "a whole number from 0 to 1000000",
        get: |r| Some(r.penalties.refused_meld.to_string()),
        example: "",
        applies: always,
        set: |r, v| {
            r.penalties.refused_meld = points(v)?;
            Ok(())
        },
    },
    Setting {
        section: "rules",
        key: "knocked",
        doc: "Penalty charge for a rack knocked over so that it cannot be counted (0 for none).",
        zh: "牌架被推倒以致無法點算時所罰的分數（0 為不罰）。",
        allowed: "a whole number from 0 to 1000000",
        get: |r| Some(r.penalties.knocked.to_string()),
        example: "",
        applies: always,
        set: |r, v| {
            r.penalties.knocked = points(v)?;
            Ok(())
        },
    },
    Setting {
        section: "rules",
        key: "penalty_mode",
        doc: "\"replace\": a charge replaces the counted rack; \"add\": it is added to it.",
        zh: "\"replace\"：罰分取代點算的牌架分數；\"add\"：罰分加在其上。",
        allowed: "\"replace\" or \"add\"",
        get: |r| Some(quote(choice_name(PENALTY_MODE, r.penalty_mode))),
        example: "",
        applies: |r| {
            let c = &r.penalties;
            [c.no_meld, c.refused_meld, c.knocked].iter().any(|&c| c != 0)
        },
        set: |r, v| {
            r.penalty_mode = choice(v, PENALTY_MODE)?;
            Ok(())
        },
    },
    Setting {
        section: "rules",
        key: "no_winner_by",
        doc: "Who leads an unfinished game: the lowest rack \"value\", or the fewest \"tiles\".",
        zh: "未完成的一局由誰領先：牌架分數（\"value\"）最低者，或餘牌（\"tiles\"）最少者。",
        allowed: "\"value\" or \"tiles\"",
        get: |r| Some(quote(choice_name(NO_WINNER_BY, r.no_winner_by))),
        example: "",
        applies: always,
        set: |r, v| {
            r.no_winner_by = choice(v, NO_WINNER_BY)?;
            Ok(())
        },
    },
    Setting {
        section: "rules",
        key: "games_per_session",
        doc: "Games on each card of the first stage (one session at one table).",
        zh: "第一階段每張計分卡的局數（一個場次、一張枱）。",
        allowed: "1 to 100",
        get: |r| Some(r.games_per_session.to_string()),
        example: "",
        applies: always,
        set: |r, v| {
            r.games_per_session = games(v)?;
            Ok(())
        },
    },
    Setting {
        section: "rules",
        key: "stages",
        doc: "The stages in the order they are played; players qualify from the first. [stages.NAME] below sets a later stage's games and carry-over.",
        zh: "按比賽次序排列的各階段；選手由第一階段晉級。下方的 [stages.NAME] 設定較後階段的局數及帶入分數。",
        allowed: "a list of 1 to 10 stage names",
        get: |r| Some(list(r.stages.iter().map(String::as_str))),
        example: "",
        applies: always,
        set: |r, v| {
            let names = strings(v)?;
            if names.is_empty() || names.len() > 10 {
                return Err(format!(
                    "{} stages: expected 1 to 10 stage names",
                    names.len()
                ));
            }
            let mut stages: Vec<String> = Vec::new();
            for n in names {
                let s = crate::domain::Stage::new(&n).as_str().to_string();
                if stages.contains(&s) {
                    return Err(format!("stage {s:?} is listed twice"));
                }
                stages.push(s);
            }
            r.stages = stages;
            Ok(())
        },
    },
    Setting {
        section: "rules",
        key: "min_age",
        doc: "Youngest age allowed on the event date.",
        zh: "比賽當日允許參賽的最低年齡。",
        allowed: "a whole number from 0 to 150",
        get: |r| r.min_age.map(|a| a.to_string()),
        example: "7",
        applies: |r| r.min_age.is_some(),
        set: |r, v| {
            r.min_age = Some(whole(v, 0, 150)?);
            Ok(())
        },
    },
    Setting {
        section: "rules",
        key: "age_scheme",
        doc: "Age groups when none are listed below: \"none\" (one field), or \"nvso_by_size\" (NVSO's groups by the number of players).",
        zh: "未列出年齡組時的分組：\"none\"（不分組），或 \"nvso_by_size\"（NVSO 按人數分組）。",
        allowed: "\"none\" or \"nvso_by_size\"",
        get: |r| Some(quote(choice_name(AGE_SCHEME, r.age_scheme))),
        example: "",
        applies: |r| r.age_groups.is_empty(),
        set: |r, v| {
            r.age_scheme = choice(v, AGE_SCHEME)?;
            Ok(())
        },
    },
    Setting {
        section: "qualifiers",
        key: "rule",
        doc: "Who goes on from each stage: \"top\" (the top of the standings), \"table_winners_and_best_seconds\" (each table's highest total, then the best seconds up to `seats`) or \"best_at_each_table\" (the best `per_table` totals at each table: the lowest under penalty points).",
        zh: "各階段的晉級方式：\"top\"（排名最高者）、\"table_winners_and_best_seconds\"（每枱總分最高者，再按 `seats` 補上最佳次名）或 \"best_at_each_table\"（每枱總分最佳的 `per_table` 人；罰分制下為最低者）。",
        allowed: "\"top\", \"table_winners_and_best_seconds\" or \"best_at_each_table\"",
        get: |r| {
            Some(quote(match r.going_on {
                GoingOn::TopOfStandings => "top",
                GoingOn::TableWinnersAndBestSeconds { .. } => "table_winners_and_best_seconds",
                GoingOn::BestAtEachTable { .. } => "best_at_each_table",
            }))
        },
        example: "",
        applies: always,
        set: |r, v| {
            let seats = match r.going_on {
                GoingOn::TableWinnersAndBestSeconds { seats } => seats,
                _ => crate::rules::advancement::CHAMPIONSHIP_SEATS,
            };
            r.going_on = choice(
                v,
                &[
                    ("top", GoingOn::TopOfStandings),
                    (
                        "table_winners_and_best_seconds",
                        GoingOn::TableWinnersAndBestSeconds { seats },
                    ),
                    (
                        "best_at_each_table",
                        GoingOn::BestAtEachTable { per_table: 1 },
                    ),
                ],
            )?;
            Ok(())
        },
    },
    Setting {
        section: "qualifiers",
        key: "per_table",
        doc: "How many go on from each table (rule = \"best_at_each_table\" only).",
        zh: "每枱晉級人數（只適用於 rule = \"best_at_each_table\"）。",
        allowed: "1 to 10, with rule = \"best_at_each_table\"",
        get: |r| match r.going_on {
            GoingOn::BestAtEachTable { per_table } => Some(per_table.to_string()),
            _ => None,
        },
        example: "1",
        applies: |r| matches!(r.going_on, GoingOn::BestAtEachTable { .. }),
        set: |r, v| {
            let per_table = whole(v, 1, 10)? as usize;
            match &mut r.going_on {
                GoingOn::BestAtEachTable { per_table: k } => {
                    *k = per_table;
                    Ok(())
                }
                _ => Err("only for rule = \"best_at_each_table\": this rule takes no number from each table".into()),
            }
        },
    },
    Setting {
        section: "qualifiers",
        key: "seats",
        doc: "Seats at the table that table winners and best seconds fill (rule = \"table_winners_and_best_seconds\" only).",
        zh: "各枱勝出者及最佳次名所填補的座位數（只適用於 rule = \"table_winners_and_best_seconds\"）。",
        allowed: "1 to 1000, with rule = \"table_winners_and_best_seconds\"",
        get: |r| match r.going_on {
            GoingOn::TableWinnersAndBestSeconds { seats } => Some(seats.to_string()),
            _ => None,
        },
        example: "4",
        applies: |r| matches!(r.going_on, GoingOn::TableWinnersAndBestSeconds { .. }),
        set: |r, v| {
            let seats = whole(v, 1, 1_000)? as usize;
            match &mut r.going_on {
                GoingOn::TableWinnersAndBestSeconds { seats: s } => {
                    *s = seats;
                    Ok(())
                }
                _ => Err("only for rule = \"table_winners_and_best_seconds\": this rule has no seats to fill".into()),
            }
        },
    },
    Setting {
        section: "qualifiers",
        key: "top",
        doc: "How many go on when the rule is the top of the standings.",
        zh: "按排名晉級（rule = \"top\"）時的晉級人數。",
        allowed: "1 to 1000000",
        get: |r| Some(r.qualifiers.to_string()),
        example: "",
        applies: |r| r.going_on == GoingOn::TopOfStandings,
        set: |r, v| {
            r.qualifiers = whole(v, 1, 1_000_000)?;
            Ok(())
        },
    },
    Setting {
        section: "qualifiers",
        key: "cutoff_ties",
        doc: "Players tied on every key across that cutoff: \"include\" (all go), \"exclude\" (none go) or \"error\" (the director decides).",
        zh: "各項均同分並跨越晉級線的選手：\"include\"（全部晉級）、\"exclude\"（全部不晉級）或 \"error\"（由裁判長決定）。",
        allowed: "\"include\", \"exclude\" or \"error\"",
        get: |r| Some(quote(choice_name(CUTOFF_TIES, r.cutoff_ties))),
        example: "",
        applies: |r| r.going_on == GoingOn::TopOfStandings,
        set: |r, v| {
            r.cutoff_ties = choice(v, CUTOFF_TIES)?;
            Ok(())
        },
    },
    Setting {
        section: "qualifiers",
        key: "table_ties",
        doc: "A tie for a table's place, or more winners than seats: \"decide\" (the list waits for the director: tilerank advance --player ID) or \"all\" (every tied player goes on).",
        zh: "同枱爭奪晉級名額同分，或勝出者多於座位：\"decide\"（名單待裁判長決定：tilerank advance --player ID）或 \"all\"（所有同分者均晉級）。",
        allowed: "\"decide\" or \"all\"",
        get: |r| Some(quote(choice_name(TABLE_TIES, r.table_ties))),
        example: "",
        applies: |r| r.going_on != GoingOn::TopOfStandings,
        set: |r, v| {
            r.table_ties = choice(v, TABLE_TIES)?;
            Ok(())
        },
    },
    Setting {
        section: "qualifiers",
        key: "named",
        doc: "Players the director named to settle such ties for going on from the first stage (roster ids), applied by every command: named = [\"P0007\"]. A later stage's ties: [stages.NAME] named.",
        zh: "裁判長為解決第一階段晉級同分而指定的選手（名冊編號），每個指令均會採用：named = [\"P0007\"]。較後階段的同分：[stages.NAME] named。",
        allowed: "a list of roster ids or names",
        get: |r| Some(list(r.named.iter().map(String::as_str))),
        example: "",
        applies: always,
        set: |r, v| {
            r.named = strings(v)?;
            Ok(())
        },
    },
    Setting {
        section: "sessions",
        key: "count",
        doc: "Sessions of the first stage: missing cards are named, and the qualifier list waits for them; a card of a session or table not on this schedule is an error.",
        zh: "第一階段的場次數目：欠交的計分卡會列出，晉級名單會等候收齊；不在此編排內的場次或枱號的計分卡屬錯誤。",
        allowed: "1 to 1000000, sessions times tables at most 1000000 (check = false expects none)",
        get: |r| r.schedule.map(|s| s.sessions.to_string()),
        example: "12",
        applies: always,
        set: |r, v| {
            let sessions = whole(v, 1, 1_000_000).map_err(|e| no_zero(v, e))?;
            r.schedule = Some(Schedule {
                sessions,
                ..r.schedule.unwrap_or(Schedule {
                    sessions,
                    tables: 0,
                })
            });
            Ok(())
        },
    },
    Setting {
        section: "sessions",
        key: "tables",
        doc: "Tables in each session of the first stage, numbered from 1.",
        zh: "第一階段每個場次的枱數，由 1 開始編號。",
        allowed: "1 to 100000, sessions times tables at most 1000000 (check = false expects none)",
        get: |r| r.schedule.map(|s| s.tables.to_string()),
        example: "25",
        applies: always,
        set: |r, v| {
            let tables = whole(v, 1, 100_000).map_err(|e| no_zero(v, e))?;
            r.schedule = Some(Schedule {
                tables,
                ..r.schedule.unwrap_or(Schedule {
                    sessions: 0,
                    tables,
                })
            });
            Ok(())
        },
    },
    Setting {
        section: "sessions",
        key: "check",
        doc: "false: the cards given are the whole first stage; no card is expected and none is named missing.",
        zh: "false：所給的計分卡即為整個第一階段；不預期任何計分卡，亦不會列出欠交。",
        allowed: "true or false",
        get: |r| r.schedule.is_none().then(|| "false".to_string()),
        example: "true",
        applies: always,
        set: |r, v| {
            if !boolean(v)? {
                r.schedule = None;
            }
            Ok(())
        },
    },
    Setting {
        section: "sessions",
        key: "per_player",
        doc: "Sessions of the first stage each player plays (hk: 1): a player on cards of more sessions is an error at each of those cards (the same card typed under two sessions, or a wrong id). Left out: any number.",
        zh: "每名選手在第一階段所打的場次數（hk：1）：選手出現在更多場次的計分卡上，即為這些計分卡的錯誤（同一張計分卡以兩個場次輸入，或選手編號有誤）。不填：不限場次。",
        allowed: "a whole number from 1 to 1000",
        get: |r| r.sessions_per_player.map(|n| n.to_string()),
        example: "1",
        applies: |r| r.sessions_per_player.is_some(),
        set: |r, v| {
            // (0 would be no player at all: leave the setting out for any
            // number)
            r.sessions_per_player = Some(whole(v, 1, 1000)?);
            Ok(())
        },
    },
    Setting {
        section: "standings",
        key: "order",
        doc: "The tie-break order, the first difference decides. Keys: games_won, average_score, total_score, tiles_left, best_game; a direction may follow a colon (total_score:lower).",
        zh: "排名次序，以第一項不同者決定。項目：games_won、average_score、total_score、tiles_left、best_game；可在冒號後註明方向（total_score:lower）。",
        allowed: "a list of keys, each once",
        get: |r| {
            Some(format!(
                "[{}]",
                r.order
                    .iter()
                    .map(|k| {
                        let better = match k.better {
                            Better::Higher => "higher",
                            Better::Lower => "lower",
                        };
                        quote(&format!("{}:{better}", k.key.name()))
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        },
        example: "",
        applies: always,
        set: |r, v| {
            let keys = strings(v)?;
            if keys.is_empty() {
                return Err("no key: give at least one".into());
            }
            let parsed = keys
                .iter()
                .map(|k| k.parse::<SortKey>())
                .collect::<Result<Vec<_>, _>>()?;
            for (i, k) in parsed.iter().enumerate() {
                if parsed[..i].iter().any(|e| e.key == k.key) {
                    return Err(format!("{} is in the order twice", k.key.name()));
                }
            }
            r.order = parsed;
            Ok(())
        },
    },
    Setting {
        section: "medals",
        key: "names",
        doc: "The medals of the final's top three: \"metals\" (gold, silver, bronze), \"runners_up\" (Champion, 1st runner-up, 2nd runner-up), or the event's own three names, first to third: [\"Gold\", \"Silver\", \"Bronze\"].",
        zh: "決賽首三名的獎牌：\"metals\"（金、銀、銅牌）、\"runners_up\"（冠軍、亞軍、季軍），或比賽自訂的三個名稱，由第一至第三：[\"Gold\", \"Silver\", \"Bronze\"]。",
        allowed: "\"metals\", \"runners_up\", or a list of 3 names",
        get: |r| {
            Some(match r.medal_names {
                MedalNames::Named(names) => list(names.into_iter()),
                other => quote(choice_name(MEDAL_NAMES, other)),
            })
        },
        example: "",
        applies: always,
        set: |r, v| {
            r.medal_names = if v.as_array().is_some() {
                let names = strings(v)?;
                match <[String; 3]>::try_from(names) {
                    Ok([a, b, c]) if [&a, &b, &c].iter().all(|n| !n.trim().is_empty()) => {
                        MedalNames::named([a.trim(), b.trim(), c.trim()])
                    }
                    Ok(_) => return Err("a medal's name is blank".into()),
                    Err(names) => {
                        return Err(format!(
                            "{} medal names: expected 3, first to third",
                            names.len()
                        ))
                    }
                }
            } else {
                choice(v, MEDAL_NAMES)?
            };
            Ok(())
        },
    },
    Setting {
        section: "awards",
        key: "super_family",
        doc: "The HK Super Family Award is given: the best parent and child who both reach the final.",
        zh: "頒發香港超級家庭獎：兩人均晉級決賽的最佳家長與子女。",
        allowed: "true or false",
        get: |r| Some(r.super_family_award.to_string()),
        example: "",
        applies: always,
        set: |r, v| {
            r.super_family_award = boolean(v)?;
            Ok(())
        },
    },
    Setting {
        section: "awards",
        key: "family_child_ages",
        doc: "The ages of a Super Family unit's child on the event date, youngest and oldest: [7, 18].",
        zh: "超級家庭單位中子女於比賽當日的年齡，最小及最大：[7, 18]。",
        allowed: "two whole numbers from 0 to 150, the first not above the second",
        get: |r| {
            Some(format!(
                "[{}, {}]",
                r.family_ages.child_min, r.family_ages.child_max
            ))
        },
        example: "",
        applies: |r| r.super_family_award,
        set: |r, v| {
            let ages = v
                .as_array()
                .filter(|a| a.len() == 2)
                .ok_or_else(|| AGES.to_string())?;
            let min = whole(ages[0].get_ref(), 0, 150).map_err(|_| AGES)?;
            let max = whole(ages[1].get_ref(), 0, 150).map_err(|_| AGES)?;
            if min > max {
                return Err("the youngest is above the oldest".into());
            }
            r.family_ages.child_min = min;
            r.family_ages.child_max = max;
            Ok(())
        },
    },
    Setting {
        section: "awards",
        key: "family_parent_min_age",
        doc: "The youngest a Super Family unit's parent may be on the event date.",
        zh: "超級家庭單位中家長於比賽當日的最低年齡。",
        allowed: "a whole number from 0 to 150",
        get: |r| Some(r.family_ages.parent_min.to_string()),
        example: "",
        applies: |r| r.super_family_award,
        set: |r, v| {
            r.family_ages.parent_min = whole(v, 0, 150)?;
            Ok(())
        },
    },
    Setting {
        section: "entry",
        key: "double",
        doc: "A card a referee enters at the table (tilerank serve --entry) counts only once the desk's typing of the paper card agrees; false: it counts at once.",
        zh: "裁判在枱邊輸入的計分卡（tilerank serve --entry）須待記分台輸入的紙本計分卡相符後才計算；false：即時計算。",
        allowed: "true or false",
        get: |r| Some(r.double_entry.to_string()),
        example: "",
        applies: always,
        set: |r, v| {
            r.double_entry = boolean(v)?;
            Ok(())
        },
    },
];

/// [`Setting::applies`] of a setting that plays a part under any rules.
fn always(_: &Rules) -> bool {
    true
}

/// Whether the setting `section.key` plays a part under `rules`
/// ([`Setting::applies`]); a key not declared here, always.
pub fn applies(section: &str, key: &str, rules: &Rules) -> bool {
    find(section, key).is_none_or(|s| (s.applies)(rules))
}

/// A later stage's setting, `[stages.NAME] key`.
pub struct StageSetting {
    pub key: &'static str,
    /// One line for the person who edits the file.
    pub doc: &'static str,
    /// The line of doc in Chinese (zh-Hant) ([`Setting::zh`]).
    pub zh: &'static str,
    /// What is allowed, in words.
    pub allowed: &'static str,
    /// The value for the stage named, as TOML (`[]` when none is given).
    pub get: fn(&Rules, &str) -> String,
    /// Whether the setting plays a part for the stage named (`named` only
    /// for a stage that sends players on).
    pub applies: fn(&Rules, &str) -> bool,
}

/// A later stage's settings, `[stages.NAME]`.
pub const STAGE_SETTINGS: [StageSetting; 4] = [
    StageSetting {
        key: "games",
        doc: "Games on each card of the stage.",
        zh: "該階段每張計分卡的局數。",
        allowed: "1 to 100",
        get: |r, s| r.games_for(&crate::domain::Stage::new(s)).to_string(),
        applies: |_, _| true,
    },
    StageSetting {
        key: "carry",
        doc: "What the stage carries over from the one before: \"none\" (fresh standings), \"all\", or \"half\" (half the points, rounded up).",
        zh: "該階段由上一階段帶入的分數：\"none\"（重新計算排名）、\"all\"（全部），或 \"half\"（一半分數，向上取整）。",
        allowed: "\"none\", \"all\" or \"half\"",
        get: |r, s| quote(r.carry.get(s).copied().unwrap_or_default().as_str()),
        applies: |_, _| true,
    },
    StageSetting {
        key: "absent",
        doc: "Players who went on to the stage and did not turn up (roster ids): the stage does not wait for them, and they are not ranked in it.",
        zh: "晉級該階段但沒有出席的選手（名冊編號）：該階段不會等候他們，亦不計他們的名次。",
        allowed: "a list of roster ids",
        get: |r, s| list(r.absent.get(s).into_iter().flatten().map(String::as_str)),
        applies: |_, _| true,
    },
    StageSetting {
        key: "named",
        doc: "Players the director named to settle a tie for going on from this stage (roster ids), applied by every command; the first stage's ties are settled by [qualifiers] named.",
        zh: "裁判長為解決由該階段晉級同分而指定的選手（名冊編號），每個指令均會採用；第一階段的同分由 [qualifiers] named 解決。",
        allowed: "a list of roster ids or names",
        get: |r, s| list(r.stage_named.get(s).into_iter().flatten().map(String::as_str)),
        applies: |r, s| r.next_stage(&crate::domain::Stage::new(s)).is_some(),
    },
];

/// A setting as the event applies it: where tilerank.toml gives it
/// (`[qualifiers] rule`, `[stages.semi] carry`), its value as the file
/// writes it (`"top"`, `120`, `["GW07"]`) and its line of doc.
pub struct Applied {
    pub place: String,
    pub value: String,
    pub doc: &'static str,
}

/// Every setting that plays a part under `rules` ([`Setting::applies`]),
/// in the declaration's order, then each later stage's
/// ([`STAGE_SETTINGS`]) in the order the stages are played, then the age
/// groups listed, one each. A setting the
/// rules leave unset (no `[sessions]` count under `check = false`) is not
/// listed: it has no value to show.
pub fn applied(rules: &Rules) -> Vec<Applied> {
    let mut out: Vec<Applied> = SETTINGS
        .iter()
        .filter(|s| (s.applies)(rules))
        .filter_map(|s| {
            Some(Applied {
                place: format!("[{}] {}", s.section, s.key),
                value: (s.get)(rules)?,
                doc: s.doc,
            })
        })
        .collect();
    for stage in rules.stages.iter().skip(1) {
        out.extend(
            STAGE_SETTINGS
                .iter()
                .filter(|s| (s.applies)(rules, stage))
                .map(|s| Applied {
                    place: format!("[stages.{stage}] {}", s.key),
                    value: (s.get)(rules, stage),
                    doc: s.doc,
                }),
        );
    }
    out.extend(rules.age_groups.iter().map(|g| {
        Applied {
            place: "[[age_groups]]".into(),
            value: age_group_toml(g)
                .lines()
                .skip(1)
                .collect::<Vec<_>>()
                .join(", "),
            doc: AGE_GROUPS_DOC,
        }
    }));
    out
}

/// What the age groups (`[[age_groups]]`) are for.
pub const AGE_GROUPS_DOC: &str = "Age groups, each running its own standings and medals (age_scheme decides when none are given here).";
/// [`AGE_GROUPS_DOC`] in Chinese (zh-Hant).
const AGE_GROUPS_ZH: &str = "年齡組，各自設排名及獎牌（未列出時由 age_scheme 決定）。";

/// A setting's line of doc, as the export's Settings sheet writes it
/// ([`applied`]), in `lang`'s words; a text that is no setting's doc, as
/// written.
pub fn doc_in(lang: crate::lang::Lang, doc: &str) -> &str {
    if lang == crate::lang::Lang::En {
        return doc;
    }
    SETTINGS
        .iter()
        .map(|s| (s.doc, s.zh))
        .chain(STAGE_SETTINGS.iter().map(|s| (s.doc, s.zh)))
        .chain([(AGE_GROUPS_DOC, AGE_GROUPS_ZH)])
        .find(|(en, _)| *en == doc)
        .map_or(doc, |(_, zh)| zh)
}

/// An age group's keys, `[[age_groups]]`.
pub const AGE_GROUP_KEYS: [(&str, &str, &str); 3] = [
    (
        "name",
        "The group's name, as the standings show it.",
        "text",
    ),
    (
        "min",
        "The youngest age in the group, on the event date.",
        "0 to 150",
    ),
    (
        "max",
        "The oldest (none: open-ended).",
        "0 to 150, at least min",
    ),
];

const SCORING: &[(&str, Scoring)] = &[
    ("zero_sum", Scoring::ZeroSum),
    ("penalty_points", Scoring::PenaltyPoints),
];
const PENALTY_MODE: &[(&str, PenaltyMode)] =
    &[("replace", PenaltyMode::Replace), ("add", PenaltyMode::Add)];
const NO_WINNER_BY: &[(&str, NoWinnerBy)] =
    &[("value", NoWinnerBy::Value), ("tiles", NoWinnerBy::Tiles)];
/// `cutoff_ties`'s choices: the file's and the command line's
/// (`--cutoff-ties`).
pub const CUTOFF_TIES: &[(&str, CutoffTies)] = &[
    ("include", CutoffTies::Include),
    ("exclude", CutoffTies::Exclude),
    ("error", CutoffTies::Error),
];
const TABLE_TIES: &[(&str, TableTies)] = &[("decide", TableTies::Decide), ("all", TableTies::All)];
const AGE_SCHEME: &[(&str, AgeScheme)] = &[
    ("none", AgeScheme::None),
    ("nvso_by_size", AgeScheme::NvsoBySize),
];
const MEDAL_NAMES: &[(&str, MedalNames)] = &[
    ("metals", MedalNames::Metals),
    ("runners_up", MedalNames::RunnersUp),
];
/// A value of the command line that is a setting's choice (`--cutoff-ties
/// exclude`), read with the setting's own words.
pub fn parse_cli<T: Copy>(s: &str, choices: &[(&'static str, T)]) -> Result<T, String> {
    pick(s, choices)
}

/// A command-line value of the setting `section.key` (`--top 64`), read
/// and checked as a file's value is, and given back as the rules take it.
pub fn from_cli<T>(
    section: &str,
    key: &str,
    text: &str,
    taken: impl Fn(&Rules) -> T,
) -> Result<T, String> {
    let setting = find(section, key).ok_or_else(|| format!("no setting {section}.{key}"))?;
    let text = text.trim();
    // a bare word is text, as a file would quote it
    let toml = if text.parse::<i64>().is_ok() {
        text.to_string()
    } else {
        quote(text)
    };
    let value = DeValue::parse(&toml).map_err(|e| e.message().to_string())?;
    let mut rules = crate::profile::ProfileName::default().rules();
    (setting.set)(&mut rules, value.get_ref())?;
    Ok(taken(&rules))
}

/// Settings read against another of their section, `(section, key, the
/// one)`: `per_table` and `seats` are for a certain `rule`. When that one
/// is wrong they are not checked (the file is wrong already, and what they
/// would be said against is not known).
pub const DEPENDS_ON: &[(&str, &str, &str)] = &[
    ("qualifiers", "per_table", "rule"),
    ("qualifiers", "seats", "rule"),
];

/// The setting `section.key`.
pub fn find(section: &str, key: &str) -> Option<&'static Setting> {
    SETTINGS
        .iter()
        .find(|s| s.section == section && s.key == key)
}

/// The keys of a section, for a message.
pub fn keys_of(section: &str) -> String {
    let keys: Vec<String> = SETTINGS
        .iter()
        .filter(|s| s.section == section)
        .map(|s| format!("`{}`", s.key))
        .collect();
    keys.join(", ")
}

fn quote(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

pub(super) fn list<'a>(items: impl Iterator<Item = &'a str>) -> String {
    format!("[{}]", items.map(quote).collect::<Vec<_>>().join(", "))
}

fn choice_name<T: PartialEq + Copy>(choices: &[(&'static str, T)], value: T) -> &'static str {
    choices
        .iter()
        .find(|(_, v)| *v == value)
        .map_or("", |(n, _)| n)
}

// What is wrong with a value, said after the value as the file writes it
// (the reader puts the setting's place before it: `[qualifiers] top = 0:
// expected 1 to 1000000`): the readers below say what was expected, not
// the key or the value again.

pub(super) fn text<'a>(v: &'a DeValue) -> Result<&'a str, String> {
    v.as_str()
        .ok_or_else(|| "expected text in quotes".to_string())
}

pub(super) fn choice<T: Copy>(v: &DeValue, choices: &[(&str, T)]) -> Result<T, String> {
    pick(text(v)?, choices)
}

/// The choice named `s` (case and spaces around ignored), or what is allowed.
fn pick<T: Copy>(s: &str, choices: &[(&str, T)]) -> Result<T, String> {
    choices
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(s.trim()))
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<String> = choices.iter().map(|(n, _)| format!("\"{n}\"")).collect();
            let (last, rest) = names
                .split_last()
                .map_or(("", &[][..]), |(l, r)| (l.as_str(), r));
            let expected = if rest.is_empty() {
                last.to_string()
            } else {
                format!("{} or {last}", rest.join(", "))
            };
            format!("expected {expected}")
        })
}

fn integer(v: &DeValue) -> Option<i64> {
    let i = v.as_integer()?;
    i64::from_str_radix(&i.as_str().replace('_', ""), i.radix()).ok()
}

/// A whole number from `min` to `max`.
pub(super) fn whole(v: &DeValue, min: u32, max: u32) -> Result<u32, String> {
    let n = integer(v).ok_or_else(|| "expected a whole number".to_string())?;
    if n < i64::from(min) || n > i64::from(max) {
        return Err(format!("expected {min} to {max}"));
    }
    Ok(n as u32)
}

pub(super) fn games(v: &DeValue) -> Result<u32, String> {
    whole(v, 1, 100)
}

fn points(v: &DeValue) -> Result<i64, String> {
    match integer(v) {
        Some(n) if (0..=1_000_000).contains(&n) => Ok(n),
        _ => Err("expected a whole number from 0 to 1000000".into()),
    }
}

/// What `family_child_ages` expects.
const AGES: &str = "expected two ages from 0 to 150 in brackets, [7, 18]";

/// A count of 0 is never a switch: the message says which key is.
fn no_zero(v: &DeValue, message: String) -> String {
    if integer(v) == Some(0) {
        format!("{message} (to expect no sessions and tables, write check = false)")
    } else {
        message
    }
}

fn boolean(v: &DeValue) -> Result<bool, String> {
    v.as_bool()
        .ok_or_else(|| "expected true or false".to_string())
}

pub(super) fn strings(v: &DeValue) -> Result<Vec<String>, String> {
    let items = v
        .as_array()
        .ok_or_else(|| "expected a list in brackets".to_string())?;
    items
        .iter()
        .map(|item| {
            item.get_ref()
                .as_str()
                .map(str::to_string)
                .ok_or_else(|| "expected a list of texts in quotes".to_string())
        })
        .collect()
}

/// An age group as a file writes it.
pub(super) fn age_group_toml(g: &AgeGroup) -> String {
    let max = g.max.map(|m| format!("max = {m}\n")).unwrap_or_default();
    format!(
        "[[age_groups]]\nname = {}\nmin = {}\n{max}",
        quote(&g.name),
        g.min
    )
}

/// The docs' table of settings: one row per setting.
pub fn docs_table() -> String {
    let mut out = String::from("| setting | what it does | allowed |\n|---|---|---|\n");
    for s in SETTINGS {
        out.push_str(&format!(
            "| `[{}] {}` | {} | {} |\n",
            s.section,
            s.key,
            s.doc.replace('|', "\\|"),
            s.allowed
        ));
    }
    for s in &STAGE_SETTINGS {
        out.push_str(&format!(
            "| `[stages.NAME] {}` | {} | {} |\n",
            s.key, s.doc, s.allowed
        ));
    }
    for (key, doc, allowed) in AGE_GROUP_KEYS {
        out.push_str(&format!("| `[[age_groups]] {key}` | {doc} | {allowed} |\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Lang;

    /// Every setting's line of doc has its Chinese, found again from the
    /// English the Settings sheet writes.
    #[test]
    fn every_doc_has_its_chinese() {
        let docs = SETTINGS
            .iter()
            .map(|s| (s.doc, s.zh))
            .chain(STAGE_SETTINGS.iter().map(|s| (s.doc, s.zh)))
            .chain([(AGE_GROUPS_DOC, AGE_GROUPS_ZH)]);
        for (en, zh) in docs {
            assert!(!zh.trim().is_empty(), "{en}");
            assert_eq!(doc_in(Lang::ZhHant, en), zh);
            assert_eq!(doc_in(Lang::En, en), en);
        }
        assert_eq!(
            doc_in(Lang::ZhHant, "examples/gwinnett"),
            "examples/gwinnett"
        );
    }
}
