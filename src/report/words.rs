//! The reports' words, one table per language: every label, heading and
//! status the site's pages say, and every sentence of the reports
//! ([`Sentence`]: the commands and the export say it in English, the site
//! in the page's language). Names and data (players' names, ids, numbers,
//! the event's name) are shown as written.
//!
//! A table is a [`Words`] value: a language that lacks a word does not
//! compile. Column headers are looked up by the export's column name
//! ([`Words::column`]); the tests check that every column of every table
//! has a header in every language. `{}` in a word is filled in order by
//! [`fill`]. The sentences are a catalog (`lang::catalog!`):
//! each one's words in every language side by side.

use crate::profile::vocabulary::{Better, Key, SortKey};
use crate::profile::Scoring;
use crate::rules::awards::{IneligibleReason, NotAUnitReason};
use crate::rules::standings::Apart;
use std::fmt;

pub use crate::lang::Lang;

impl Lang {
    pub fn words(self) -> &'static Words {
        match self {
            Lang::En => &EN,
            Lang::ZhHant => &ZH_HANT,
        }
    }
}
pub use crate::lang::fill;

crate::lang::catalog! {
    /// A sentence of the reports, with its words in each language: the
    /// reports say it in English ([`Sentence::en`]), the site in the
    /// page's language ([`super::site::said`]). Each sentence is written
    /// once, here, in every language.
    pub enum Sentence {
        Note => "NOTE: {}", "備註：{}";
        Decision => "DECISION: {}", "待裁判長決定：{}";
        InGroup => "Group {}: {}", "{}組：{}";
        NamedToSettle => "{}, named by the director to settle a tie", "{}，由裁判長指定以解決同分";
        LastToGoOn => "{}; the last to go on from there had {}", "{}；該枱最後晉級者總分 {}";
        TiedNamedOthers => "{}: in a tie, the director named who goes on", "{}：同分，由裁判長指定晉級者";
        TiedDirectorDecides => "{}: in a tie, the director decides who goes on", "{}：同分，待裁判長決定晉級者";
        SecondFarther => "second: {} behind the winner of {}; the seconds who went on were at most {} behind",
            "次名：落後 {} 分（{}勝出者）；晉級的次名最多落後 {} 分";
        SecondOfWinnersFarther => "second: {} behind the winners of {}; the seconds who went on were at most {} behind",
            "次名：落後 {} 分（{}各勝出者）；晉級的次名最多落後 {} 分";
        SecondNoneWent => "second: {} behind the winner of {}; no second went on",
            "次名：落後 {} 分（{}勝出者）；沒有次名晉級";
        SecondOfWinnersNoneWent => "second: {} behind the winners of {}; no second went on",
            "次名：落後 {} 分（{}各勝出者）；沒有次名晉級";
        Shared => "{} (shared)", "{}（並列）";
        Then => "{}, then {}", "{}，其次{}";
        Or => "{}; or {}", "{}；或{}";
        TotalPoints => "total points", "總分";
        ListedApart => "{} listed apart, not ranked (W withdrawn, DQ disqualified).",
            "{} 人另列，不計名次（已退出或已取消資格）。";
        TieAtCutoff => "TIE AT THE CUTOFF: {} players share rank {} across the top-{} cutoff ({} within it, {} beyond); {}",
            "晉級線同分：{} 名選手並列第 {} 名，跨越前 {} 名的晉級線（線內 {} 人，線外 {} 人）；{}";
        BothGoOn => "both go on (policy include): {}", "兩人均晉級（規則：晉級線同分者全部晉級）：共 {}";
        AllGoOn => "all {} go on (policy include): {}", "{} 人全部晉級（規則：晉級線同分者全部晉級）：共 {}";
        NoneGoOn => "none of them go on (policy exclude): {}", "全部不晉級（規則：晉級線同分者全部不晉級）：共 {}";
        ChooseCutoffTies => "choose --cutoff-ties include or exclude (or set cutoff_ties in the event's settings)",
            "待裁判長決定同分者全部晉級或全部不晉級";
        OneQualifier => "1 qualifier", "1 名晉級者";
        Qualifiers => "{} qualifiers", "{} 名晉級者";
        TieAtCutoffNote => "tie at cutoff, {}", "晉級線同分，{}";
        SharedRank => "shared rank {}", "並列第 {} 名";
        SharedWord => "shared", "並列";
        TieAtTableNamed => "TIE at {}: {} players ({}) share the {}; the director named {}",
            "{}同分：{} 名選手（{}）同為{}；裁判長指定 {}";
        TieAtTableAllGo => "TIE at {}: {} players ({}) share the {}; all of them go on, unless the director names who goes on (--player, or in {}: [qualifiers] named for the first stage, [stages.NAME] named for a later one)",
            "{}同分：{} 名選手（{}）同為{}；除非裁判長指定晉級者（--player，或在 {} 中：首階段用 [qualifiers] named，其後的階段用 [stages.NAME] named），否則全部晉級";
        TieAtTableListed => "TIE at {}: {} players ({}) share the {}; all of them are listed as going on until the director names who goes on (--player), or sets table_ties = \"all\"",
            "{}同分：{} 名選手（{}）同為{}；在裁判長指定晉級者之前，全部列為晉級";
        TableWinner => "table winner at {} with {}", "{}勝出，總分 {}";
        BestSecond => "best second: {} behind the winner of {}", "最佳次名：落後 {} 分（{}勝出者）";
        BestSecondOfWinners => "best second: {} behind the winners of {}", "最佳次名：落後 {} 分（{}各勝出者）";
        LowestAt => "lowest total at {} with {}", "{}最低總分 {}";
        HighestAt => "highest total at {} with {}", "{}最高總分 {}";
        LowestTotal => "lowest total {}", "最低總分 {}";
        HighestTotal => "highest total {}", "最高總分 {}";
        RankOfTop => "rank {} of the top {}", "第 {} 名（前 {} 名晉級）";
        RankTiedAtCutoff => "rank {}, tied at the top-{} cutoff", "第 {} 名，於前 {} 名晉級線同分";
        TableAnd => "table {}, {}", "第 {} 枱、{}";
        Table => "table {}", "第 {} 枱";
        NotFinalUntil => "The list is not final until the director decides: {}.",
            "名單尚未確定，待裁判長決定：{}。";
        NotFinal => "The list is not final until the director decides.", "名單尚未確定，待裁判長決定。";
        SettleCutoff => "set [qualifiers] cutoff_ties = \"include\" (all the players tied at the cutoff go on) or \"exclude\" (none of them do) in {}, or give --cutoff-ties include or exclude to qualifiers, export or publish; naming players (--player, [qualifiers] named) does not settle a tie at the cutoff",
            "晉級線同分者全部晉級或全部不晉級（{} 的 [qualifiers] cutoff_ties）；指定選手不能解決晉級線同分";
        SettleTableTies => "set [qualifiers] table_ties = \"all\" in {}; naming players does not settle it",
            "所有同分者均晉級（{} 的 [qualifiers] table_ties）；指定選手不能解決";
        SettleByNaming => "name who goes on (tilerank advance --player, or in {}: [qualifiers] named for the first stage, [stages.NAME] named for a later one), or set table_ties = \"all\" there",
            "指定晉級者，或所有同分者均晉級（{} 的 [qualifiers] table_ties）";
        RulesFileToWrite => "a rules file given with --rules FILE (tilerank profiles show {} prints the {} rules to start it from)",
            "以 --rules FILE 指定的規則檔（tilerank profiles show {} 可印出 {} 規則作為起點）";
        NotFinalSeeDecision => "NOT FINAL: the director decides (see the DECISION above, or the Problems sheet).",
            "名單尚未確定：待裁判長決定（見上方待決定事項）。";
        NoCardsYet => "No {} cards: nobody has qualified yet.", "尚未有{}計分卡：暫時沒有人晉級。";
        GamesNote => "Only cards that passed every check are listed. Finish: out (a seat emptied its rack) or unfinished; Leader: 1 for the game's best score; Sum of scores: {}; Card total: the seat's Total line.",
            "只列出通過所有核對的計分卡。結束方式：出清（有座位打出所有牌）或未完成；最高分：1 表示該局最高分；得分總和：{}；卡上總分：該座位的總計一行。";
        ZeroSum => "0 in every game (zero-sum)", "每局皆為 0（零和）";
        PenaltyOfTable => "the penalty points of the table", "該枱的罰分";
        Out => "out", "出清";
        Unfinished => "unfinished", "未完成";
        Ok => "ok", "正確";
        NoMedalYet => "no medal yet: no one is ranked in the {} yet", "暫無獎牌：{}尚未有排名";
        NotAwarded => "not awarded: {} (ties took the place, or too few players)",
            "未頒發：{}（名次因同分而被佔，或人數不足）";
        NotAFinal => "These are the standings of the {} stage, not of a final.", "這是{}的排名，並非決賽。";
        NoSuperFamily => "The Super Family Award is not given under the {} rules ([awards] super_family = false).",
            "{} 規則不設超級家庭獎（[awards] super_family = false）。";
        NoFinalYet => "No final stage yet: the Super Family Award is decided on the final's results of families whose both members qualified.",
            "決賽尚未進行：超級家庭獎按兩名成員均晉級的家庭的決賽成績決定。";
        SuperFamily => "Super Family Award: family {} ({} and {}).", "超級家庭獎：家庭 {}（{} 與 {}）。";
        SuperFamilyTie => "Families {} tie for the Super Family Award: a tie for the best is reported, not broken.",
            "家庭 {} 同分並列超級家庭獎首位：同分只作報告，不作拆分。";
        NoUnitEligible => "No family unit is eligible: both members must qualify for the final and have a final result.",
            "沒有合資格的家庭：兩名成員均須晉級決賽並有決賽成績。";
        NotEligibleOne => "1 family is not eligible for the award: {}.", "1 個家庭不合資格：{}。";
        NotEligibleMany => "{} families are not eligible for the award: {}.", "{} 個家庭不合資格：{}。";
        KindNeitherQualified => "neither member qualified for the final, {} ({})", "兩名成員均未晉級決賽，{}（{}）";
        KindOneNotQualified => "one member did not qualify for the final, {} ({})", "其中一名成員未晉級決賽，{}（{}）";
        KindNoFinalResult => "a member has no ranked result in the final, {} ({})", "有成員沒有決賽排名，{}（{}）";
        NotAUnitOne => "1 family is not a unit: {}.", "1 個家庭不構成參賽單位：{}。";
        NotAUnitMany => "{} families are not units: {}.", "{} 個家庭不構成參賽單位：{}。";
        KindAlone => "only one roster entry has the family id, {} ({})", "名冊上只有一人用此家庭編號，{}（{}）";
        KindTooMany => "more than two roster entries share the family id, {} ({})", "多於兩人共用此家庭編號，{}（{}）";
        KindNoAge => "a member's age is not known, {} ({})", "有成員年齡不詳，{}（{}）";
        KindAges => "the ages do not make a parent and a child, {} ({})", "年齡不符一名家長及一名子女，{}（{}）";
        NotAUnitBecause => "not a unit: {}", "不構成參賽單位：{}";
        NoFamilyApart => "Every family on the roster is an eligible unit.", "名冊上所有家庭均為合資格單位。";
        NoSessionsListed => "The event lists no sessions and tables (tilerank.toml's [sessions]): missing cards are not checked.",
            "比賽未列出場次及枱號（tilerank.toml 的 [sessions]）：不核對欠交的計分卡。";
        MissingCard => "missing card", "欠交計分卡";
        InConflict => "in conflict on the board", "看板上有衝突";
        ForTheDesk => "waiting for the desk's typing", "等候記分台輸入";
        TypedTwiceDiffer => "held back by double entry: its two typings differ", "雙重輸入暫緩：兩次輸入不符";
        StillToPlay => "{}: still to play", "{}：尚未比賽";
        PlayedNoGame => "played no game", "未曾比賽";
        NothingToReport => "Nothing to report: no warnings, no notes.", "沒有需要報告的事項：沒有警告，沒有備註。";
        NeitherQualified => "neither {} nor {} qualified for the final", "{} 與 {} 均未晉級決賽";
        DidNotQualify => "{} did not qualify for the final", "{} 未晉級決賽";
        NoResultWithdrawn => "{} has no ranked result in the final (withdrawn)", "{} 沒有決賽排名（已退出）";
        NoResultDisqualified => "{} has no ranked result in the final (disqualified)",
            "{} 沒有決賽排名（已取消資格）";
        NoResult => "{} has no ranked result in the final", "{} 沒有決賽排名";
        UnitAlone => "only one roster entry has this family id: a unit is two, a parent and a child",
            "名冊上只有一人用此家庭編號：一個單位須為兩人，一名家長及一名子女";
        UnitTooMany => "{} roster entries share this family id: a unit is exactly two, a parent and a child (give each pair its own family id)",
            "名冊上有 {} 人共用此家庭編號：一個單位須剛好兩人，一名家長及一名子女（每對請用各自的家庭編號）";
        UnitNoAge => "{} has no birth_date or age, so the unit cannot be checked",
            "{} 沒有出生日期或年齡，無法核對此單位";
        UnitNoChild => "no child: the younger member {} is aged {}; a child is aged {} to {}",
            "沒有子女：較年輕的成員 {} 為 {} 歲；子女須為 {} 至 {} 歲";
        UnitNoParent => "no parent: the older member {} is aged {}; a parent is aged {} or over",
            "沒有家長：較年長的成員 {} 為 {} 歲；家長須為 {} 歲或以上";
        UnitSameAge => "both members are aged {}: the parent must be older than the child",
            "兩名成員均為 {} 歲：家長須比子女年長";
        TooManyWinners => "{} table winners ({}) for {} championship seats: all are listed as going on; {}",
            "{} 名枱冠（{}）爭 {} 個冠軍席位：全部列為晉級；{}";
        AllPlayChampionship => "table_ties = \"all\": they all play the championship",
            "table_ties = \"all\"：全部參加冠軍賽";
        DirectorDecidesPlayOff => "the director decides (a play-off, or a second championship table), or sets table_ties = \"all\"",
            "由裁判長決定（加賽，或增設冠軍枱），或設定 table_ties = \"all\"";
        TieForLastSeat => "TIE FOR THE LAST seat: {} seconds ({}) are each {} behind their winners, for 1 seat",
            "最後 1 個席位同分：{} 名次名（{}）各落後其勝出者 {} 分，爭 1 個席位";
        TieForLastSeats => "TIE FOR THE LAST seats: {} seconds ({}) are each {} behind their winners, for {} seats",
            "最後席位同分：{} 名次名（{}）各落後其勝出者 {} 分，爭 {} 個席位";
        NamedSome => "{}; the director named {} ({} of {}); name exactly {}",
            "{}；裁判長指定 {}（{} 之 {}）；須剛好指定 {} 人";
        Named => "{}; the director named {}", "{}；裁判長指定 {}";
        AllGoOnTableTies => "{}; table_ties = \"all\": they all go on",
            "{}；table_ties = \"all\"：全部晉級";
        NoneUntilNamed => "{}; none of them goes on until the director names {} (--player), or sets table_ties = \"all\"",
            "{}；在裁判長指定 {} 人之前，他們均不晉級";
        EmptySeats => "only {} players go on to the {} championship seats (a winner and a second from each table); {}",
            "只有 {} 名選手晉級 {} 個冠軍席位（每枱一名勝出者及一名次名）；{}";
        SeatsStayEmpty => "table_ties = \"all\": the seats stay empty",
            "table_ties = \"all\"：空出的席位保持空缺";
        DirectorDecidesSeats => "only those who go on can be seated: once the director accepts that the seats stay empty, set table_ties = \"all\"",
            "只有晉級者可以入座：裁判長接受席位空缺後，請設定 table_ties = \"all\"";
        SeveralTables => "{} played at {} tables of the stage ({}); each table was judged on its own",
            "{} 在此階段於 {} 張枱比賽（{}）；每枱各自計算";
        NamedInNoTie => "{} was named but is in no tie: it changes nothing", "{} 獲指定但並無同分：不影響結果";
        SilverBronze => "silver, bronze", "銀牌、銅牌";
        RunnersUp => "1st runner-up, 2nd runner-up", "亞軍、季軍";
        Provisional => "PROVISIONAL: {}", "暫定：{}";
        ProvisionalSeeMissing => "PROVISIONAL: {} (see the Missing sheet)", "暫定：{}（見尚未收到一頁）";
        OneCardMissing => "1 card missing", "欠交 1 張計分卡";
        CardsMissing => "{} cards missing", "欠交 {} 張計分卡";
        OneStillToPlay => "1 player of the {} still to play", "1 名{}選手尚未比賽";
        PlayersStillToPlay => "{} players of the {} still to play", "{} 名{}選手尚未比賽";
        OneTableInConflict => "1 table in conflict on the board", "看板上 1 枱的計分卡有衝突";
        TablesInConflict => "{} tables in conflict on the board", "看板上 {} 枱的計分卡有衝突";
        OneTableForTheDesk => "1 table waiting for the desk's typing", "1 枱等候記分台輸入";
        TablesForTheDesk => "{} tables waiting for the desk's typing", "{} 枱等候記分台輸入";
        OneTableTypedTwice => "1 table typed twice whose typings differ", "1 枱輸入兩次但兩次不符";
        TablesTypedTwice => "{} tables typed twice whose typings differ", "{} 枱輸入兩次但兩次不符";
        EnteredStored => "entered for {}: now the event's card", "{}的輸入：成為賽事的計分卡";
        EnteredSame => "entered for {}: the same as the event's card", "{}的輸入：與賽事的計分卡相同";
        EnteredHeld => "entered for {}: held until the desk's typing agrees",
            "{}的輸入：暫存，待記分台的輸入相符後計入";
        EnteredInConflict => "entered for {}: in conflict, held for the director's decision on the board",
            "{}的輸入：有衝突，留待裁判長在看板上決定";
        DecidedCardStands => "decided on the board for {}: the event's card stands (reason: {})",
            "裁判長在看板上就{}作出決定：維持賽事的計分卡（原因：{}）";
        DecidedForReferee => "decided on the board for {}: referee {}'s entry accepted (reason: {})",
            "裁判長在看板上就{}作出決定：接受裁判 {} 的輸入（原因：{}）";
        DecidedForDeskTyping => "decided on the board for {}: the desk's typing ({}) accepted (reason: {})",
            "裁判長在看板上就{}作出決定：接受記分台的輸入（{}）（原因：{}）";
        SettledDeskAgrees => "settled at the desk for {}: the desk's typing agrees with the referee's entry",
            "記分台就{}確認：記分台的輸入與裁判的輸入相符";
        SettledDeskReplace => "settled at the desk for {}: import --replace (reason: {})",
            "記分台以 import --replace 解決{}（原因：{}）";
        NoFinalMedals => "No final stage yet: medals are the top three of the final's standings of each group.",
            "決賽尚未進行：獎牌按各組決賽排名的前三名頒發。";
        CheckSeats => "{} seats", "{} 個座位";
        CheckSum => "scores sum to {}", "得分總和為 {}";
        CheckLeader => "a winner who is not a leader", "勝出者並非最高分";
        CheckWentOut => "the winner is not the seat that went out", "勝出者並非出清的座位";
        CheckTwoOut => "more than one seat went out", "多於一個座位出清";
        CheckNegative => "a negative penalty", "罰分為負數";
        CheckNobody => "nobody won", "無人勝出";
        NoEventDate => "No event date: ages are taken on the event date; give --date YYYY-MM-DD or set [event] date in tilerank.toml.",
            "沒有比賽日期：年齡按比賽日期計算；請用 --date YYYY-MM-DD 或在 tilerank.toml 設定 [event] date。";
        LowestAtSt => "{}st lowest total at {} with {}", "第 {} 低總分（{}）{}";
        HighestAtSt => "{}st highest total at {} with {}", "第 {} 高總分（{}）{}";
        LowestAtNd => "{}nd lowest total at {} with {}", "第 {} 低總分（{}）{}";
        HighestAtNd => "{}nd highest total at {} with {}", "第 {} 高總分（{}）{}";
        LowestAtRd => "{}rd lowest total at {} with {}", "第 {} 低總分（{}）{}";
        HighestAtRd => "{}rd highest total at {} with {}", "第 {} 高總分（{}）{}";
        LowestAtTh => "{}th lowest total at {} with {}", "第 {} 低總分（{}）{}";
        HighestAtTh => "{}th highest total at {} with {}", "第 {} 高總分（{}）{}";
        LowestTotalSt => "{}st lowest total {}", "第 {} 低總分 {}";
        HighestTotalSt => "{}st highest total {}", "第 {} 高總分 {}";
        LowestTotalNd => "{}nd lowest total {}", "第 {} 低總分 {}";
        HighestTotalNd => "{}nd highest total {}", "第 {} 高總分 {}";
        LowestTotalRd => "{}rd lowest total {}", "第 {} 低總分 {}";
        HighestTotalRd => "{}rd highest total {}", "第 {} 高總分 {}";
        LowestTotalTh => "{}th lowest total {}", "第 {} 低總分 {}";
        HighestTotalTh => "{}th highest total {}", "第 {} 高總分 {}";
        TableInSession => "table {} (session {})", "第 {} 枱（場次 {}）";
        TableOfStageInSession => "{} table {} (session {})", "{}第 {} 枱（場次 {}）";
        TableOfStage => "{} table {}", "{}第 {} 枱";
        And => "{}; {}", "{}；{}";
    }
}

impl Sentence {
    /// The places (from 0, in English's order) where the sentence takes a
    /// list ([`List`]): the site says each item of it, and joins them in
    /// the page's language ([`Lang::list`]).
    pub fn lists(self) -> &'static [usize] {
        use Sentence as S;
        match self {
            S::NotAwarded | S::SuperFamilyTie | S::DidNotQualify => &[0],
            // the ids of a tie, and of those the director named
            S::TieAtTableNamed => &[2, 4],
            S::TieAtTableAllGo | S::TieAtTableListed => &[2],
            S::TooManyWinners
            | S::TieForLastSeat
            | S::TieForLastSeats
            | S::Named
            | S::NamedSome => &[1],
            S::KindNeitherQualified
            | S::KindOneNotQualified
            | S::KindNoFinalResult
            | S::KindAlone
            | S::KindTooMany
            | S::KindNoAge
            | S::KindAges => &[1],
            _ => &[],
        }
    }

    /// The sentence in English, `{}` filled by `parts` in order: what every
    /// command, output file and export says.
    pub fn en(self, parts: &[&dyn fmt::Display]) -> String {
        let words = self.words(Lang::En);
        debug_assert_eq!(crate::lang::places(words).len(), parts.len(), "{self:?}");
        fill(words, parts)
    }

    /// The English words before and after the one part the sentence
    /// takes: for a note said a million times, put together with no
    /// formatting machinery.
    pub fn around(self) -> (&'static str, &'static str) {
        let words = self.words(Lang::En);
        debug_assert_eq!(words.matches("{}").count(), 1, "{self:?}");
        words.split_once("{}").unwrap_or((words, ""))
    }

    /// Texts joined two by two with this sentence of two parts, in
    /// English: `a, then b, then c` for [`Sentence::Then`]; `None` for no
    /// text.
    pub fn joined(self, texts: impl IntoIterator<Item = String>) -> Option<String> {
        texts.into_iter().reduce(|a, b| self.en(&[&a, &b]))
    }

    /// `said` as a note of age group `group` ("Group 80+: ..."), when the
    /// note is one group's.
    pub fn in_group(group: Option<&impl fmt::Display>, said: String) -> String {
        match group {
            Some(g) => Sentence::InGroup.en(&[g, &said]),
            None => said,
        }
    }

    /// The sentence in English when it takes no part.
    pub fn text(self) -> &'static str {
        let words = self.words(Lang::En);
        debug_assert!(!words.contains("{}"), "{self:?}");
        words
    }
}

/// Items a sentence takes as one of its parts, a list ([`Sentence::lists`]
/// names the places): in English, joined as English joins a list
/// ([`Lang::list`]).
pub struct List<'a, T>(pub &'a [T]);

impl<T: fmt::Display> fmt::Display for List<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&Lang::En.list(self.0))
    }
}

/// A ranking key in `w`'s words under `scoring`: "games won (more
/// first)". Under penalty points the scores are named as the standings
/// head their columns ([`super::standings::headed`]): "total penalty
/// points (lower first)".
pub fn sort_key(w: &Words, k: SortKey, scoring: Scoring) -> String {
    let penalty = scoring == Scoring::PenaltyPoints;
    let name = match (k.key, k.better) {
        (Key::GamesWon, _) => w.key_won,
        (Key::AverageScore, _) if penalty => w.key_average_penalty,
        (Key::TotalScore, _) if penalty => w.key_total_penalty,
        (Key::AverageScore, _) => w.key_average,
        (Key::TotalScore, Better::Higher) => w.key_total,
        (Key::TotalScore, Better::Lower) => Sentence::TotalPoints.words(w.lang),
        (Key::TilesLeft, _) => w.key_tiles,
        (Key::BestGame, _) => w.key_best,
    };
    let first = match (k.key, k.better) {
        (Key::GamesWon | Key::TilesLeft, Better::Higher) => w.more,
        (Key::TotalScore, Better::Lower) if penalty => w.lower,
        (Key::GamesWon | Key::TilesLeft | Key::TotalScore, Better::Lower) => w.fewer,
        (_, Better::Higher) => w.higher,
        (_, Better::Lower) => w.lower,
    };
    fill(w.sort_key, &[&name, &first])
}

impl fmt::Display for SortKey {
    /// The key in English, its scores named as zero-sum scores are
    /// ([`sort_key`] names them under other scoring).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&sort_key(&EN, *self, Scoring::ZeroSum))
    }
}

/// The order of a ranking in English, its scores named as `scoring`
/// scores ([`sort_key`]): "Order: games won (more first), then average
/// score (higher first)."
pub fn order(keys: &[SortKey], scoring: Scoring) -> String {
    let keys = Sentence::Then
        .joined(keys.iter().map(|&k| sort_key(&EN, k, scoring)))
        .unwrap_or_default();
    fill(EN.order, &[&keys])
}

impl fmt::Display for NotAUnitReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Sentence as S;
        f.write_str(&match self {
            NotAUnitReason::Alone => S::UnitAlone.text().to_string(),
            NotAUnitReason::TooMany { count } => S::UnitTooMany.en(&[count]),
            NotAUnitReason::NoAge { id, why: None } => S::UnitNoAge.en(&[id]),
            NotAUnitReason::NoAge { id, why: Some(e) } => format!("{id}: {e}"),
            NotAUnitReason::NoChild { id, age, ages } => {
                S::UnitNoChild.en(&[id, age, &ages.child_min, &ages.child_max])
            }
            NotAUnitReason::NoParent { id, age, ages } => {
                S::UnitNoParent.en(&[id, age, &ages.parent_min])
            }
            NotAUnitReason::SameAge { age } => S::UnitSameAge.en(&[age]),
        })
    }
}

impl fmt::Display for IneligibleReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Sentence as S;
        f.write_str(&match self {
            IneligibleReason::NotQualified { ids } if ids.len() == 2 => {
                S::NeitherQualified.en(&[&ids[0], &ids[1]])
            }
            IneligibleReason::NotQualified { ids } => S::DidNotQualify.en(&[&List(ids)]),
            IneligibleReason::NoResult { id, apart } => match apart {
                Some(Apart::Withdrawn) => S::NoResultWithdrawn.en(&[id]),
                Some(Apart::Disqualified) => S::NoResultDisqualified.en(&[id]),
                None => S::NoResult.en(&[id]),
            },
        })
    }
}

/// Every word of the site in one language.
pub struct Words {
    /// The language of these words.
    pub lang: Lang,
    // The frame of every page.
    pub results: &'static str,
    pub players: &'static str,
    pub projector: &'static str,
    pub find_player: &'static str,
    pub search_hint: &'static str,
    pub no_match: &'static str,
    pub footer: &'static str,
    pub index_link: &'static str,
    pub nobody_yet: &'static str,
    pub provisional: &'static str,
    /// On every page `serve` serves while files with errors are left out
    /// of it: the files, each as "{file} (2 errors)".
    pub refused_files: &'static str,
    pub file_one_error: &'static str,
    pub file_n_errors: &'static str,
    pub one_card: &'static str,
    pub n_cards: &'static str,
    pub one_game: &'static str,
    pub n_games: &'static str,
    pub one_player: &'static str,
    pub n_players: &'static str,
    /// Players who went on to a stage and have not played it yet.
    pub one_waiting: &'static str,
    pub n_waiting: &'static str,
    /// Tables the live desk's board holds back: in conflict (the
    /// director decides), or a referee's entry waiting for the desk.
    pub one_conflict: &'static str,
    pub n_conflicts: &'static str,
    pub one_for_desk: &'static str,
    pub n_for_desk: &'static str,
    /// Tables a double entry held back: the desk typed them twice and
    /// the two typings differ (`import --second-entry`).
    pub one_typed_twice: &'static str,
    pub n_typed_twice: &'static str,

    // The index.
    pub date: &'static str,
    pub rules: &'static str,
    pub imported: &'static str,
    /// The cards, games and players counted, each already in words.
    pub imported_counts: &'static str,
    /// After the players who played, when the roster has more.
    pub on_roster: &'static str,
    pub state_none: &'static str,
    pub state_provisional: &'static str,
    pub state_complete: &'static str,
    pub state_unchecked: &'static str,
    pub state_final_played: &'static str,
    pub state_qualifiers: &'static str,
    pub desk_notes: &'static str,
    pub every_player: &'static str,
    pub projector_view: &'static str,
    pub missing: &'static str,
    pub nothing_missing: &'static str,
    pub no_cards: &'static str,

    // Table pages: what each of the export's tables is.
    pub standings: &'static str,
    pub group: &'static str,
    pub qualifiers: &'static str,
    /// Who goes on from a later stage than the first: "Qualifiers from
    /// the {}" (the stage).
    pub qualifiers_from: &'static str,
    pub medals: &'static str,
    pub no_final: &'static str,
    pub award: &'static str,
    pub problems: &'static str,
    pub settings: &'static str,
    pub log: &'static str,
    pub ranked_apart: &'static str,
    pub notes_as_written: &'static str,
    pub same_for_all: &'static str,
    /// A check column that is ok on every line (Chinese does not say
    /// `全部為正確`).
    pub all_ok: &'static str,

    // A player's page.
    pub rank_of: &'static str,
    pub no_rank: &'static str,
    pub qualified: &'static str,
    pub not_qualified: &'static str,
    pub not_qualified_by: &'static str,
    pub not_qualified_by_one: &'static str,
    pub not_qualified_because: &'static str,
    pub medal: &'static str,
    pub withdrawn: &'static str,
    pub disqualified: &'static str,
    pub games_won: &'static str,
    pub average: &'static str,
    pub player_id: &'static str,
    pub family: &'static str,
    pub no_results: &'static str,
    pub also_in: &'static str,
    pub why: &'static str,
    /// The sentences under "why": the order of the keys, and which key
    /// puts a player above the next (`above`: the upper player, the lower,
    /// the key, their two values).
    pub order: &'static str,
    pub then: &'static str,
    /// Between the parts of a heading or a list: ", " (in Chinese the
    /// full-width "，").
    pub comma: &'static str,
    /// Between two sentences: a space in English, nothing after Chinese's
    /// full stop.
    pub between_sentences: &'static str,
    pub sort_key: &'static str,
    pub key_won: &'static str,
    pub key_average: &'static str,
    pub key_total: &'static str,
    /// The scores' names under penalty points, as their columns are
    /// headed ("Average penalty points", in a sentence).
    pub key_average_penalty: &'static str,
    pub key_total_penalty: &'static str,
    pub key_tiles: &'static str,
    pub key_best: &'static str,
    pub more: &'static str,
    pub fewer: &'static str,
    pub higher: &'static str,
    pub lower: &'static str,
    pub above: &'static str,
    pub all_equal: &'static str,
    /// A player withdrawn for having played fewer games than a card has.
    pub withdrawn_short_why: &'static str,
    /// A player the roster marks withdrawn.
    pub withdrawn_roster_why: &'static str,
    pub disqualified_why: &'static str,
    pub games: &'static str,
    pub game_n: &'static str,
    pub seat: &'static str,
    pub won_game: &'static str,
    pub score_tiles: &'static str,
    pub at_table: &'static str,
    /// A card's seat whose player left (withdrawn): seat, player, their
    /// last game.
    pub seat_left: &'static str,

    // The players list, a card's page, the projector.
    pub players_count: &'static str,
    pub players_hint: &'static str,
    pub card_title: &'static str,
    pub card_meta: &'static str,
    pub scrolls: &'static str,
    pub no_standings: &'static str,

    // The printed score cards (`seating -o`). The labels tilerank reads
    // back from a filled card keep their English words first (the Chinese
    // follows in brackets, which the reader passes over).
    /// A card's title: the event's name, then the stage (`card_stages`)
    /// and "score card" (`HK 2026 Final Score Card`, `HK 2026 決賽計分卡`).
    /// The reader takes the card's stage from the stage said last before
    /// "score card", in either language.
    pub card_heading: &'static str,
    /// The title when the event's name says the stage (`{}`: the name),
    /// or when there is no name (`{}`: the stage).
    pub card_heading_one: &'static str,
    /// The title when the event's name says a stage of its own that is
    /// not the card's alone (`HK 2026 初賽` for the final): the card's
    /// stage is put apart, `HK 2026 初賽：決賽計分卡`, so the two stages do
    /// not read as one.
    pub card_heading_apart: &'static str,
    /// A card's sheet in the workbook of cards (`{}`: the table, two
    /// digits in English, `Table 07`, as written in Chinese, `第7枱`); the
    /// card reader reads the table from the card's own cell, and this name
    /// too reads as that table.
    pub card_sheet: &'static str,
    /// The sheet when a table number repeats in the workbook (`{}`: the
    /// session, then the table): `S01 T07`, `第1節 第7枱`.
    pub card_sheet_session: &'static str,
    /// The stages as a card's title says them (a stage not listed: as
    /// written).
    pub card_stages: &'static [(&'static str, &'static str)],
    pub card_date: &'static str,
    pub card_referee: &'static str,
    pub card_session: &'static str,
    pub card_table: &'static str,
    pub card_group: &'static str,
    pub card_name: &'static str,
    /// Each seat's three columns: game won, score, tiles left. The
    /// reader knows the English words.
    pub card_subheaders: [&'static str; 3],
    /// The score's column under penalty points (`gwinnett`), in place of
    /// `card_subheaders`' second: the score is the points left on the
    /// rack, never minus ([`Words::card_subheaders_for`]).
    pub card_penalty: &'static str,
    pub card_game: &'static str,
    pub card_total: &'static str,
    pub card_signature: &'static str,
    pub card_remark_label: &'static str,
    pub card_remark: &'static str,
    pub card_qr: &'static str,
    /// The line under a printed card's title while who sits at it can
    /// still change (`{}`: what is still to come, `275 cards missing`).
    pub card_provisional: &'static str,

    // The referee's entry page (`serve --entry`, [`super::entry`]).
    pub entry_title: &'static str,
    pub entry_referee: &'static str,
    pub entry_stage: &'static str,
    /// The heading of the buttons to the entry page of each other stage.
    pub entry_stages: &'static str,
    /// A button to the entry page of another stage (`{}`: the stage).
    pub entry_stage_go: &'static str,
    pub entry_session: &'static str,
    pub entry_table: &'static str,
    pub entry_pick: &'static str,
    pub entry_players: &'static str,
    pub entry_player: &'static str,
    pub entry_player_id: &'static str,
    pub entry_seat_hint: &'static str,
    pub entry_won: &'static str,
    pub entry_score: &'static str,
    /// The score's label under penalty points ([`Words::entry_score_for`]).
    pub entry_penalty: &'static str,
    pub entry_tiles: &'static str,
    pub entry_field: &'static str,
    pub entry_sign: &'static str,
    pub entry_sign_hint: &'static str,
    pub entry_send: &'static str,
    pub entry_send_checked: &'static str,
    pub entry_send_errors: &'static str,
    pub entry_sending: &'static str,
    pub entry_checking: &'static str,
    pub entry_not_checked: &'static str,
    pub entry_check_status: &'static str,
    pub entry_stored: &'static str,
    pub entry_same: &'static str,
    pub entry_waiting: &'static str,
    /// A 409 that came without the server's message (the server's says
    /// who holds the other version and what to do).
    pub entry_conflict: &'static str,
    pub entry_problems: &'static str,
    pub entry_denied: &'static str,
    pub entry_too_large: &'static str,
    pub entry_too_many: &'static str,
    pub entry_server: &'static str,
    pub entry_offline: &'static str,
    pub entry_kept: &'static str,
    pub entry_new_card: &'static str,
    pub entry_unsent: &'static str,
    pub entry_card: &'static str,
    pub entry_error: &'static str,
    pub entry_warning: &'static str,
    pub entry_note: &'static str,
    /// A label and what it labels (`Error: ...`), on the phone and the
    /// site's pages.
    pub entry_says: &'static str,
    pub entry_no_script: &'static str,

    // The director's board (`serve --entry`, `/board`,
    // [`super::board`]).
    pub board_page_title: &'static str,
    pub board_title: &'static str,
    /// The event's name when it has none.
    pub board_event: &'static str,
    pub board_in: &'static str,
    pub board_waiting: &'static str,
    pub board_conflicts: &'static str,
    pub board_missing: &'static str,
    /// Tables a double entry held back (said only when there are some).
    pub board_typed_twice: &'static str,
    /// Of a later stage, the players who went on to it and have no card
    /// of it yet ([`crate::event::Completeness::waiting`]): its count and
    /// the stage's name.
    pub board_one_no_card: &'static str,
    pub board_n_no_card: &'static str,
    pub board_double: &'static str,
    pub board_single: &'static str,
    /// The tables waiting for the director's decision, listed first.
    pub board_decide: &'static str,
    /// The tables after those.
    pub board_others: &'static str,
    /// The tables, when none waits for a decision.
    pub board_tables: &'static str,
    /// The columns of the tables' list: the card, its state, the event's
    /// card and the referees' entries.
    pub board_headers: [&'static str; 4],
    pub board_missing_state: &'static str,
    pub board_waiting_state: &'static str,
    pub board_in_state: &'static str,
    pub board_conflict_state: &'static str,
    /// A table a double entry held back, and what the desk does.
    pub board_typed_twice_state: &'static str,
    /// After an entry that agrees with the event's card.
    pub board_agrees: &'static str,
    pub board_decided: &'static str,
    pub board_the_card: &'static str,
    /// An entry: its number and who entered it.
    pub board_entry: &'static str,
    /// A card entered by a referee, as the log and the board name it (the
    /// referee's name as written).
    pub entry_by_referee: &'static str,
    /// The desk's typing of a card kept for the board: as an entry
    /// (`desk: S01.xlsx`), and as a card's file (the file as written).
    pub entry_desk: &'static str,
    pub entry_desk_typing: &'static str,
    pub board_no_longer: &'static str,
    pub board_keep: &'static str,
    pub board_accept_entry: &'static str,
    pub board_reason: &'static str,
    pub board_reason_hint: &'static str,
    pub board_accept: &'static str,
    pub board_reload: &'static str,
    /// Two versions, and the values that differ between them.
    pub board_differs: &'static str,
    /// A value that differs: game, seat, field, and its value in each.
    pub board_difference: &'static str,
    /// Between two differences in a line.
    pub board_then: &'static str,
    /// The columns of a version's lines.
    pub board_columns: [&'static str; 6],
    /// The fields of a line, as a difference names them: player, won,
    /// score, tiles left.
    pub board_fields: [&'static str; 4],

    /// Known stage names (as the event's settings write them) in words.
    pub stages: &'static [(&'static str, &'static str)],
    /// Status and medal cells (`Q`, `W`, `gold`...) in words.
    pub cells: &'static [(&'static str, &'static str)],
    /// Column headers by the export's column name.
    pub columns: &'static [(&'static str, &'static str)],
}

impl Words {
    /// The header of the column `name`, or `None` when this language has
    /// none (a test keeps that from happening).
    pub fn column(&self, name: &str) -> Option<&'static str> {
        self.columns
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, w)| *w)
    }

    /// A header: the column's label, or its machine name if it has none.
    pub fn header(&self, name: &'static str) -> &'static str {
        self.column(name).unwrap_or(name)
    }

    /// A stage's name in words; a stage the table does not know, as
    /// written.
    pub fn stage<'a>(&self, stage: &'a str) -> &'a str {
        self.lang.stage(stage)
    }

    /// Who goes on from `stage`, as a list's title names it: "Qualifiers"
    /// from the event's first stage (`first`), "Qualifiers from the
    /// semi-final" (準決賽晉級名單) from a later one: the site's page, the
    /// command's title.
    pub fn qualifiers_of(&self, stage: &str, first: bool) -> String {
        if first {
            self.qualifiers.to_string()
        } else {
            fill(self.qualifiers_from, &[&self.stage(stage)])
        }
    }

    /// A printed card's sub-header for each seat under `scoring`: the
    /// score's column says "Score (+/-)" for zero-sum scores, "Penalty
    /// points" for penalty points (`gwinnett`).
    pub fn card_subheaders_for(&self, scoring: Scoring) -> [&'static str; 3] {
        let [won, score, tiles] = self.card_subheaders;
        match scoring {
            Scoring::ZeroSum => [won, score, tiles],
            Scoring::PenaltyPoints => [won, self.card_penalty, tiles],
        }
    }

    /// The entry page's label of a score under `scoring`.
    pub fn entry_score_for(&self, scoring: Scoring) -> &'static str {
        match scoring {
            Scoring::ZeroSum => self.entry_score,
            Scoring::PenaltyPoints => self.entry_penalty,
        }
    }

    /// A status or medal cell in words; anything else as written.
    pub fn cell<'a>(&self, value: &'a str) -> &'a str {
        self.cells
            .iter()
            .find(|(n, _)| *n == value)
            .map_or(value, |(_, w)| w)
    }
}

pub static EN: Words = Words {
    lang: Lang::En,
    results: "Results",
    players: "Players",
    projector: "Projector",
    find_player: "Find a player",
    search_hint: "Your name, 中文名 or player number",
    no_match: "No player matches.",
    footer: "Written by tilerank {}.",
    index_link: "Back to the results",
    nobody_yet: "Nobody yet.",
    provisional: "Provisional: {} not in yet, so places can still change.",
    refused_files: "Not in these results yet: {}, which the desk is correcting. Until then these pages show the results from before.",
    file_one_error: "{} (1 error)",
    file_n_errors: "{} ({} errors)",
    one_card: "1 card",
    n_cards: "{} cards",
    one_game: "1 game",
    n_games: "{} games",
    one_player: "1 player",
    n_players: "{} players",
    one_waiting: "1 player of the {}",
    n_waiting: "{} players of the {}",
    one_conflict: "the director's decision on 1 disputed card",
    n_conflicts: "the director's decision on {} disputed cards",
    one_for_desk: "the desk's check of 1 card",
    n_for_desk: "the desk's check of {} cards",
    one_typed_twice: "1 card typed twice at the desk whose two typings differ",
    n_typed_twice: "{} cards typed twice at the desk whose two typings differ",

    date: "Date",
    rules: "Rules",
    imported: "Cards in",
    imported_counts: "{}, {}, {}",
    on_roster: " ({} on the roster)",
    state_none: "No results yet: the first cards are not in.",
    state_provisional: "Results so far: {} still to come, so places can still change.",
    state_complete: "Every card is in: these are the results of the {}.",
    state_unchecked: "Results of the {} so far.",
    state_final_played: "The final has been played: the medals are in.",
    state_qualifiers: "{} players go on from the {}.",
    desk_notes: "From the scoring desk",
    every_player: "Every player ({})",
    projector_view: "Projector view",
    missing: "Still to come",
    nothing_missing: "Nothing: every card the event expects is in.",
    no_cards: "No cards yet.",

    standings: "Standings, {}",
    group: "group {}",
    qualifiers: "Qualifiers",
    qualifiers_from: "Qualifiers from the {}",
    medals: "Medals",
    no_final: "No final yet: the medals go to the top three of the final's standings.",
    award: "Super Family Award",
    problems: "Warnings and notes",
    settings: "Settings",
    log: "Import log",
    ranked_apart: "{} ranked, {} listed apart.",
    notes_as_written: "Notes",
    same_for_all: "{}: {} for everyone.",
    all_ok: "{}: ok for everyone.",

    rank_of: "{} of {}",
    no_rank: "Not ranked",
    qualified: "Qualified",
    not_qualified: "Not qualified",
    not_qualified_by: "Not qualified: {} places below the cutoff",
    not_qualified_by_one: "Not qualified: 1 place below the cutoff",
    not_qualified_because: "Not qualified: {}",
    medal: "Medal: {}",
    withdrawn: "Withdrawn",
    disqualified: "Disqualified",
    games_won: "Games won",
    average: "Average",
    player_id: "Player {}",
    family: "family {}",
    no_results: "No results yet.",
    also_in: "Also listed in",
    why: "Why this place: {}",
    order: "Order: {}.",
    then: ", then ",
    comma: ", ",
    between_sentences: " ",
    sort_key: "{} ({} first)",
    key_won: "games won",
    key_average: "average score",
    key_total: "total score",
    key_average_penalty: "average penalty points",
    key_total_penalty: "total penalty points",
    key_tiles: "tiles left",
    key_best: "best single game",
    more: "more",
    fewer: "fewer",
    higher: "higher",
    lower: "lower",
    above: "{} is above {} on {}: {} against {}.",
    all_equal: "{} and {} are equal on every key and share rank {}; they are listed by roster id.",
    withdrawn_short_why: "{} is withdrawn: they played fewer games than a card has; not ranked.",
    withdrawn_roster_why: "{} is withdrawn on the roster; not ranked.",
    disqualified_why: "{} is disqualified on the roster; not ranked.",
    games: "Games: {}",
    game_n: "Game {}",
    seat: "Seat {}",
    won_game: "won",
    score_tiles: "score {}, tiles {}",
    at_table: "At the table:",
    seat_left: "Seat {} ({}) played no game after game {}: withdrawn.",

    players_count: "Players: {}",
    players_hint: "Type in the box above to find a player by number, name or Chinese name.",
    card_title: "{}, session {}, table {}",
    card_meta: "{} games, as recorded at session {}, table {}.",
    scrolls: "This page scrolls by itself and reloads at the end.",
    no_standings: "No standings yet.",

    card_heading: "{} {} Score Card",
    card_heading_one: "{} Score Card",
    card_heading_apart: "{}: {} Score Card",
    card_sheet: "Table {}",
    card_sheet_session: "S{} T{}",
    card_stages: &[
        ("prelim", "Preliminary Round"),
        ("semi", "Semi-final"),
        ("final", "Final"),
    ],
    card_date: "Date:",
    card_referee: "Referee:",
    card_session: "Session number:",
    card_table: "Table number:",
    card_group: "Age group:",
    card_name: "Name",
    card_subheaders: ["Game Won (1/0)", "Score (+/-)", "Tiles on rack"],
    card_penalty: "Penalty points",
    card_game: "Game {}",
    card_total: "Total",
    card_signature: "Participant Signature",
    card_remark_label: "Remark:",
    card_remark: "- Each participant needs to sign on the score card to confirm the scores. After signing the score card, any subsequent complaints or appeals will not be accepted.",
    card_qr: "This table's results:",
    card_provisional: "PROVISIONAL SEATING ({}): who goes on can still change. Check this table against the final seating before play.",

    entry_title: "Score card entry",
    entry_referee: "Referee: {}",
    entry_stage: "Stage: {}",
    entry_stages: "Cards of another stage",
    entry_stage_go: "Enter {} cards",
    entry_session: "Session",
    entry_table: "Table",
    entry_pick: "Choose",
    entry_players: "Players",
    entry_player: "Player id, seat {}",
    entry_player_id: "Player id",
    entry_seat_hint: "Type each seat's player id. Leave a seat empty when three play.",
    entry_won: "Won (1/0)",
    entry_score: "Score (+/-)",
    entry_penalty: "Penalty points",
    entry_tiles: "Tiles left",
    entry_field: "Game {}, seat {}: {}",
    entry_sign: "Change the sign of the score (minus / plus)",
    entry_sign_hint: "A minus score: type - before or after the number, or press ±. Typing - again makes it plus.",
    entry_send: "Send card",
    entry_send_checked: "Send card: no errors found",
    entry_send_errors: "Send card ({} errors to fix)",
    entry_sending: "Sending the card…",
    entry_checking: "Checking…",
    entry_not_checked: "Not checked: no connection. What you typed is kept on this phone.",
    entry_check_status: "Not checked: the server answered {}.",
    entry_stored: "Stored: {}.",
    entry_same: "Already stored: the same card, {}.",
    entry_waiting: "Stored: {}. It is compared with the desk's typing of the paper card when that is in.",
    entry_conflict: "Not stored: the event holds a different card for {}.",
    entry_problems: "Not stored: fix the problems marked on the card and send again.",
    entry_denied: "You are signed out: open your link again (scan your QR code).",
    entry_too_large: "Refused: the card is too large.",
    entry_too_many: "Refused: too many tries. Wait a few seconds, then send again.",
    entry_server: "Not stored: the server answered {}. Send again.",
    entry_offline: "Not sent yet: no connection. It is sent when the connection is back, or press Send again. What you typed is kept on this phone.",
    entry_kept: "What you type is kept on this phone until the card is stored.",
    entry_new_card: "New card",
    entry_unsent: "Not sent yet on this phone",
    entry_card: "session {}, table {}",
    entry_error: "Error",
    entry_warning: "Warning",
    entry_note: "Note",
    entry_says: "{}: {}",
    entry_no_script: "This page needs JavaScript: turn it on, or hand the paper card to the desk.",

    board_page_title: "Board — {}",
    board_title: "{} — the desk's board",
    board_event: "Event",
    board_in: "{} in",
    board_waiting: "{} waiting for the desk",
    board_conflicts: "{} in conflict",
    board_missing: "{} missing",
    board_typed_twice: "{} typed twice, the typings differ",
    board_one_no_card: "1 player of the {} has no card yet",
    board_n_no_card: "{} players of the {} have no card yet",
    board_double: "Double entry: a referee's card counts once the desk's typing of the paper card agrees.",
    board_single: "A referee's card counts as soon as it is entered; the desk's typing is checked against it.",
    board_decide: "Waiting for your decision ({})",
    board_others: "The other tables",
    board_tables: "The tables",
    board_headers: ["card", "state", "the event's card", "referees' entries"],
    board_missing_state: "missing",
    board_waiting_state: "waiting for the desk",
    board_in_state: "in",
    board_conflict_state: "CONFLICT",
    board_typed_twice_state: "typed twice, the typings differ (held back by double entry): compare them with the signed card, then import the right one",
    board_agrees: ", agrees",
    board_decided: "decided {}",
    board_the_card: "The event's card",
    board_entry: "Entry {} by {}",
    entry_by_referee: "entry by referee {}",
    entry_desk: "desk: {}",
    entry_desk_typing: "{} (the desk's typing)",
    board_no_longer: "(no longer passes its checks)",
    board_keep: "keep the event's card",
    board_accept_entry: "accept entry {} by {}",
    board_reason: "Reason",
    board_reason_hint: "checked against the signed card",
    board_accept: "Accept",
    board_reload: "Reload",
    board_differs: "{} vs {}: {}",
    board_difference: "game {}, seat {} {}: {} vs {}",
    board_then: "; ",
    board_columns: ["Game", "Seat", "Player", "Won", "Score", "Tiles left"],
    board_fields: ["player", "won", "score", "tiles left"],


    stages: Lang::En.stages(),
    cells: &[("Q", "Q"), ("W", "W"), ("DQ", "DQ")],
    columns: &[
        ("rank", "Rank"),
        ("player", "ID"),
        ("name", "Name"),
        ("group", "Age group"),
        ("games", "Games"),
        ("won", "Won"),
        ("avg_score", "Average score"),
        ("total_score", "Total score"),
        ("tiles", "Tiles left"),
        ("status", "Status"),
        ("note", "Note"),
        ("best_game", "Best game"),
        ("avg_penalty", "Average penalty points"),
        ("penalty", "Penalty points"),
        ("total_penalty", "Total penalty points"),
        ("medal", "Medal"),
        ("family", "Family"),
        ("parent", "Parent"),
        ("parent_name", "Parent name"),
        ("child", "Child"),
        ("child_name", "Child name"),
        ("reason", "Reason"),
        ("stage", "Stage"),
        ("session", "Session"),
        ("table", "Table"),
        ("game", "Game"),
        ("seat", "Seat"),
        ("score", "Score"),
        ("players", "Players"),
        ("finish", "Finish"),
        ("leader", "Leader"),
        ("game_sum", "Sum of scores"),
        ("card_total", "Card total"),
        ("check", "Check"),
        ("what", "What"),
        ("file", "File"),
        ("sha256", "SHA-256"),
        ("setting", "Setting"),
        ("value", "Value"),
        ("about", "About"),
        ("severity", "Severity"),
        ("place", "Where"),
        ("message", "Message"),
        ("n", "N"),
        ("cards", "Cards"),
        ("tables", "Tables"),
        ("action", "Action"),
        ("time", "Time"),
        ("others", "At the table"),
    ],
};

pub static ZH_HANT: Words = Words {
    lang: Lang::ZhHant,
    results: "賽果",
    players: "選手",
    projector: "投影",
    find_player: "搜尋選手",
    search_hint: "姓名、英文名或選手編號",
    no_match: "找不到相符的選手。",
    footer: "由 tilerank {} 製作。",
    index_link: "返回賽果",
    nobody_yet: "暫時沒有。",
    provisional: "臨時結果：尚有 {}未計入，名次仍可能改變。",
    refused_files: "尚未計入賽果：{}，記分台正在更正。更正前，本頁顯示先前的賽果。",
    file_one_error: "{}（1 個錯誤）",
    file_n_errors: "{}（{} 個錯誤）",
    one_card: "1 張計分卡",
    n_cards: "{} 張計分卡",
    one_game: "1 局",
    n_games: "{} 局",
    one_player: "1 名選手",
    n_players: "{} 名選手",
    one_waiting: "1 名{}選手",
    n_waiting: "{} 名{}選手",
    one_conflict: "裁判長對 1 張有爭議計分卡的決定",
    n_conflicts: "裁判長對 {} 張有爭議計分卡的決定",
    one_for_desk: "記分台對 1 張計分卡的核對",
    n_for_desk: "記分台對 {} 張計分卡的核對",
    one_typed_twice: "記分台輸入兩次但兩次不符的 1 張計分卡",
    n_typed_twice: "記分台輸入兩次但兩次不符的 {} 張計分卡",

    date: "日期",
    rules: "規則",
    imported: "已收計分卡",
    imported_counts: "{}，{}，{}",
    on_roster: "（名冊上共 {} 名）",
    state_none: "暫無賽果：第一批計分卡尚未收到。",
    state_provisional: "目前賽果：尚有 {}未到，名次仍可能改變。",
    state_complete: "所有計分卡已收齊：以下是{}的賽果。",
    state_unchecked: "{}目前的賽果。",
    state_final_played: "決賽已完成：獎牌已經產生。",
    state_qualifiers: "{} 名選手由{}晉級。",
    desk_notes: "記分台通告",
    every_player: "所有選手（{}）",
    projector_view: "投影畫面",
    missing: "尚未收到",
    nothing_missing: "沒有：比賽預期的計分卡已全部收到。",
    no_cards: "暫時未有計分卡。",

    standings: "{}排名",
    group: "{}組",
    qualifiers: "晉級名單",
    qualifiers_from: "{}晉級名單",
    medals: "獎牌",
    no_final: "決賽尚未進行：獎牌頒給決賽排名的首三名。",
    award: "超級家庭獎",
    problems: "警告及備註",
    settings: "設定",
    log: "匯入記錄",
    ranked_apart: "{} 人排名，{} 人另列。",
    notes_as_written: "備註",
    same_for_all: "{}：全部為 {}。",
    all_ok: "{}：全部正確。",

    rank_of: "第 {} 名（共 {} 人）",
    no_rank: "沒有排名",
    qualified: "已晉級",
    not_qualified: "未晉級",
    not_qualified_by: "未晉級：距晉級線 {} 個名次",
    not_qualified_by_one: "未晉級：距晉級線 1 個名次",
    not_qualified_because: "未晉級：{}",
    medal: "獎牌：{}",
    withdrawn: "已退出",
    disqualified: "已取消資格",
    games_won: "勝局",
    average: "平均",
    player_id: "選手編號 {}",
    family: "家庭 {}",
    no_results: "暫時未有成績。",
    also_in: "亦列於",
    why: "名次原因：{}",
    order: "排名次序：{}。",
    then: "，其次",
    comma: "，",
    between_sentences: "",
    sort_key: "{}（{}者優先）",
    key_won: "勝局",
    key_average: "平均得分",
    key_total: "總分",
    key_average_penalty: "平均罰分",
    key_total_penalty: "總罰分",
    key_tiles: "餘牌",
    key_best: "單局最佳得分",
    more: "多",
    fewer: "少",
    higher: "高",
    lower: "低",
    above: "{} 排在 {} 之上，取決於{}：{} 對 {}。",
    all_equal: "{} 與 {} 各項相同，同列第 {} 名；按選手編號排列。",
    withdrawn_short_why: "{} 已退出：對局少於記分卡的局數，不計名次。",
    withdrawn_roster_why: "{} 已退出（名冊註明），不計名次。",
    disqualified_why: "{} 已取消資格（名冊註明），不計名次。",
    games: "對局：{}",
    game_n: "第 {} 局",
    seat: "座位 {}",
    won_game: "勝",
    score_tiles: "得分 {}，餘牌 {}",
    at_table: "同枱：",
    seat_left: "座位 {}（{}）第 {} 局後沒有再比賽：已退出。",

    players_count: "選手：{}",
    players_hint: "在上方輸入姓名、英文名或選手編號以搜尋選手。",
    card_title: "{}，場次 {}，第 {} 枱",
    card_meta: "{} 局，場次 {} 第 {} 枱的紀錄。",
    scrolls: "此頁會自動捲動，到底後重新載入。",
    no_standings: "暫時未有排名。",

    card_heading: "{} {}計分卡",
    card_heading_one: "{}計分卡",
    card_heading_apart: "{}：{}計分卡",
    card_sheet: "第{}枱",
    card_sheet_session: "第{}節 第{}枱",
    card_stages: &[("prelim", "初賽"), ("semi", "準決賽"), ("final", "決賽")],
    card_date: "Date (日期):",
    card_referee: "Referee (裁判):",
    card_session: "Session number (場次):",
    card_table: "Table number (枱號):",
    card_group: "Age group (年齡組):",
    card_name: "Name (姓名)",
    card_subheaders: [
        "Game Won (勝局 1/0)",
        "Score (得分 +/-)",
        "Tiles on rack (餘牌)",
    ],
    card_penalty: "Penalty points (罰分)",
    card_game: "Game {} (第 {} 局)",
    card_total: "Total (總計)",
    card_signature: "Participant Signature (參賽者簽名)",
    card_remark_label: "Remark (備註):",
    card_remark: "- 每位參賽者須在計分卡上簽名確認分數。簽名後，任何其後的投訴或上訴將不獲受理。",
    card_qr: "This table's results (本枱賽果):",
    card_provisional:
        "PROVISIONAL SEATING 臨時座位（{}）：晉級名單仍可能改變，比賽前請核對最終座位。",

    entry_title: "計分卡輸入",
    entry_referee: "裁判：{}",
    entry_stage: "階段：{}",
    entry_stages: "其他階段的計分卡",
    entry_stage_go: "輸入 {} 計分卡",
    entry_session: "場次",
    entry_table: "枱號",
    entry_pick: "請選擇",
    entry_players: "選手",
    entry_player: "座位 {} 選手編號",
    entry_player_id: "選手編號",
    entry_seat_hint: "輸入每個座位的選手編號。三人對局時，空位留空。",
    entry_won: "勝局 (1/0)",
    entry_score: "得分 (+/-)",
    entry_penalty: "罰分",
    entry_tiles: "餘牌",
    entry_field: "第 {} 局，座位 {}：{}",
    entry_sign: "轉換得分正負號",
    entry_sign_hint: "負分：在數字前或後輸入 -，或按 ±。再輸入 - 即變回正分。",
    entry_send: "提交計分卡",
    entry_send_checked: "提交計分卡：沒有錯誤",
    entry_send_errors: "提交計分卡（尚有 {} 個錯誤）",
    entry_sending: "正在提交計分卡……",
    entry_checking: "檢查中……",
    entry_not_checked: "未能檢查：沒有網絡連線。已輸入的資料保留在此手機。",
    entry_check_status: "未能檢查：伺服器回應 {}。",
    entry_stored: "已儲存：{}。",
    entry_same: "已儲存過：相同的計分卡，{}。",
    entry_waiting: "已儲存：{}。記分台輸入紙本計分卡後會再核對。",
    entry_conflict: "未儲存：賽事已有{}的另一版本計分卡。",
    entry_problems: "未儲存：請修正計分卡上標示的問題後再提交。",
    entry_denied: "你已登出：請重新打開你的連結（掃描你的 QR 碼）。",
    entry_too_large: "被拒：計分卡太大。",
    entry_too_many: "被拒：嘗試次數太多。請稍候數秒後再提交。",
    entry_server: "未儲存：伺服器回應 {}。請再提交。",
    entry_offline:
        "尚未提交：沒有網絡連線。連線恢復後會自動提交，或再按提交。已輸入的資料保留在此手機。",
    entry_kept: "已輸入的資料會保留在此手機，直至計分卡儲存為止。",
    entry_new_card: "新計分卡",
    entry_unsent: "此手機上尚未提交",
    entry_card: "場次 {}，第 {} 枱",
    entry_error: "錯誤",
    entry_warning: "警告",
    entry_note: "備註",
    entry_says: "{}：{}",
    entry_no_script: "此頁需要 JavaScript：請開啟，或把紙本計分卡交給記分台。",

    board_page_title: "看板 — {}",
    board_title: "{} — 記分台看板",
    board_event: "賽事",
    board_in: "已收 {} 枱",
    board_waiting: "等候記分台 {} 枱",
    board_conflicts: "衝突 {} 枱",
    board_missing: "未交 {} 枱",
    board_typed_twice: "輸入兩次不符 {} 枱",
    board_one_no_card: "{}尚無計分卡 1 名",
    board_n_no_card: "{1}尚無計分卡 {0} 名",
    board_double: "雙重輸入：裁判輸入的計分卡，須待記分台按紙本計分卡輸入的版本相符，才會計算。",
    board_single: "裁判輸入的計分卡即時計算；記分台按紙本計分卡輸入的版本會與之核對。",
    board_decide: "待你決定（{} 枱）",
    board_others: "其他各枱",
    board_tables: "各枱",
    board_headers: ["計分卡", "狀態", "賽事的計分卡", "裁判輸入"],
    board_missing_state: "未交",
    board_waiting_state: "等候記分台",
    board_in_state: "已收",
    board_conflict_state: "衝突",
    board_typed_twice_state:
        "輸入兩次但兩次不符（雙重輸入暫緩）：請與已簽署的計分卡核對，再匯入正確的一份",
    board_agrees: "，相符",
    board_decided: "已決定：{}",
    board_the_card: "賽事的計分卡",
    board_entry: "第 {} 號輸入（{}）",
    entry_by_referee: "裁判 {} 的輸入",
    entry_desk: "記分台：{}",
    entry_desk_typing: "{}（記分台的輸入）",
    board_no_longer: "（已不能通過檢查）",
    board_keep: "保留賽事的計分卡",
    board_accept_entry: "採用第 {} 號輸入（{}）",
    board_reason: "理由",
    board_reason_hint: "已與簽署的計分卡核對",
    board_accept: "採用",
    board_reload: "重新載入",
    board_differs: "{} 對 {}：{}",
    board_difference: "第 {} 局，座位 {} {}：{} 對 {}",
    board_then: "；",
    board_columns: ["局", "座位", "選手", "勝局", "得分", "餘牌"],
    board_fields: ["選手", "勝局", "得分", "餘牌"],

    stages: Lang::ZhHant.stages(),
    cells: &[
        ("Q", "晉級"),
        ("W", "已退出"),
        // (the word without 已 in a table's cell, short as the English
        // cell's DQ: the standings' row keeps to one line on a phone)
        ("DQ", "取消資格"),
        ("Gold", "金牌"),
        ("Silver", "銀牌"),
        ("Bronze", "銅牌"),
        ("Champion", "冠軍"),
        ("1st runner-up", "亞軍"),
        ("2nd runner-up", "季軍"),
        ("error", "錯誤"),
        ("warning", "警告"),
        ("note", "備註"),
        // the import log's actions
        ("import", "匯入"),
        ("replace", "取代"),
        ("remove", "移除"),
        ("roster", "名冊"),
        ("read", "讀取"),
        ("read roster", "讀取名冊"),
        ("accepted", "接受"),
        ("rejected", "拒絕"),
        ("entry", "輸入"),
        ("decision", "決定"),
    ],
    columns: &[
        ("rank", "名次"),
        ("player", "編號"),
        ("name", "姓名"),
        ("group", "年齡組"),
        ("games", "局數"),
        ("won", "勝局"),
        ("avg_score", "平均得分"),
        ("total_score", "總得分"),
        ("tiles", "餘牌"),
        ("status", "狀態"),
        ("note", "備註"),
        ("best_game", "最佳一局"),
        ("avg_penalty", "平均罰分"),
        ("penalty", "罰分"),
        ("total_penalty", "總罰分"),
        ("medal", "獎牌"),
        ("family", "家庭"),
        ("parent", "家長"),
        ("parent_name", "家長姓名"),
        ("child", "子女"),
        ("child_name", "子女姓名"),
        ("reason", "原因"),
        ("stage", "階段"),
        ("session", "場次"),
        ("table", "枱"),
        ("game", "局"),
        ("seat", "座位"),
        ("score", "得分"),
        ("players", "人數"),
        ("finish", "結束方式"),
        ("leader", "最高分"),
        ("game_sum", "得分總和"),
        ("card_total", "卡上總分"),
        ("check", "核對"),
        ("what", "項目"),
        ("file", "檔案"),
        ("sha256", "SHA-256"),
        ("setting", "設定"),
        ("value", "數值"),
        ("about", "說明"),
        ("severity", "嚴重程度"),
        ("place", "位置"),
        ("message", "訊息"),
        ("n", "數目"),
        ("cards", "計分卡"),
        ("tables", "枱號"),
        ("action", "處理"),
        ("time", "時間"),
        ("others", "同枱"),
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_has_every_column_and_cell() {
        fn names(cols: &[(&'static str, &'static str)]) -> Vec<&'static str> {
            let mut n: Vec<&str> = cols.iter().map(|(n, _)| *n).collect();
            n.sort_unstable();
            n
        }
        // The export's own labels are among ours.
        for (name, _) in crate::report::LABELS {
            assert!(EN.column(name).is_some(), "no English header for {name}");
        }
        for lang in Lang::ALL {
            let w = lang.words();
            assert_eq!(names(w.columns), names(EN.columns), "{lang}: columns");
            assert_eq!(names(w.stages), names(EN.stages), "{lang}: stages");
            assert_eq!(
                names(w.card_stages),
                names(EN.card_stages),
                "{lang}: card_stages"
            );
            for (n, word) in w.columns.iter().chain(w.stages).chain(w.cells) {
                assert!(!word.trim().is_empty(), "{lang}: {n} has no word");
            }
        }
        // Every column of the import log and the Games sheet has a header.
        let games = crate::report::export::GAME_COLUMNS.map(|c| c.name);
        for name in crate::report::export::LOG_COLUMNS.iter().chain(&games) {
            for lang in Lang::ALL {
                assert!(
                    lang.words().column(name).is_some(),
                    "{lang}: no header for {name}"
                );
            }
        }
        // Every status, medal and severity the reports write, and every
        // action of the import log, has its words.
        for cell in ["Q", "W", "DQ", "error", "warning", "note"]
            .into_iter()
            .chain(crate::report::export::LOG_ACTIONS)
        {
            assert!(ZH_HANT.cells.iter().any(|(n, _)| *n == cell), "{cell}");
        }
        use crate::profile::vocabulary::MedalNames;
        use crate::rules::medals::Medal;
        for names in [MedalNames::Metals, MedalNames::RunnersUp] {
            for m in [Medal::Gold, Medal::Silver, Medal::Bronze] {
                let n = m.name(names);
                assert_ne!(ZH_HANT.cell(n), n, "no words for the medal {n}");
            }
        }
    }

    /// A sentence names the scores under penalty points in the words that
    /// head their columns (the order line and the headers agree).
    #[test]
    fn penalty_keys_are_named_as_their_columns_are_headed() {
        for lang in Lang::ALL {
            let w = lang.words();
            for (said, heading) in [
                (w.key_average_penalty, "avg_penalty"),
                (w.key_total_penalty, "total_penalty"),
            ] {
                let header = w.header(heading);
                let mut chars = header.chars();
                let lowered: String = chars
                    .next()
                    .into_iter()
                    .flat_map(char::to_lowercase)
                    .chain(chars)
                    .collect();
                assert_eq!(said, lowered, "{lang}: {heading}");
            }
        }
        let keys = [
            SortKey {
                key: Key::TotalScore,
                better: Better::Lower,
            },
            SortKey {
                key: Key::GamesWon,
                better: Better::Higher,
            },
        ];
        assert_eq!(
            order(&keys, Scoring::PenaltyPoints),
            "Order: total penalty points (lower first), then games won (more first)."
        );
        assert_eq!(
            order(&keys, Scoring::ZeroSum),
            "Order: total points (fewer first), then games won (more first)."
        );
    }

    #[test]
    fn a_language_is_named_by_its_tag() {
        assert_eq!("zh-Hant".parse::<Lang>(), Ok(Lang::ZhHant));
        assert_eq!("en".parse::<Lang>(), Ok(Lang::En));
        assert!("fr".parse::<Lang>().is_err());
        assert_eq!(fill("{} of {}", &[&3, &"9"]), "3 of 9");
        assert_eq!(fill("{}", &[]), "");
    }
}
