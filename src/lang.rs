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
