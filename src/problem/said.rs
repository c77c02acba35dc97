//! What the checks of a card say, in words of each language.
//!
//! A message of a card's checks (a value that cannot be read, a game whose
//! scores do not add up, a player not on the roster) is made as a [`Said`]:
//! which message ([`Msg`]) and its parts (a score, a seat, a cell as
//! written, or a phrase said in words of its own). Its English is what
//! every command, output file and log says ([`Said`]'s `Display`); a page
//! in another language says it in that language's words ([`Said::say`]):
//! the referee's phone, through `serve`, and the site's Problems page
//! (its warnings and notes: a site is published only from cards with no
//! error).
//!
//! What a message says to do is, where the director's commands differ
//! from what a referee can do at the table, a [`Part::Advice`]: the
//! desk's words in every command, the table's on a referee's phone.
//!
//! Each message's words are written once, below, every language's beside
//! the English (a catalog (`lang::catalog!`), as the reports'
//! sentences are): a message without the words of a language does not
//! compile, and a test checks that each language's words take the same
//! parts. Messages not made here (a damaged file's, a layout not
//! recognised, the event folder's, the settings') are said in English in
//! every language.

use crate::lang::{places, Lang};
use std::fmt;

crate::lang::catalog! {
    /// A message of a card's checks, or a phrase within one.
    pub enum Msg {
        // Phrases within messages.
        /// A list with nothing in it.
        Nothing => "none", "無";
        /// A list's last two parts.
        And => "{} and {}", "{} 和 {}";
        Or => "{} or {}", "{} 或 {}";
        /// Two items of a list that names no last one apart: `A +30, B -5`.
        Comma => "{}, {}", "{}、{}";
        OnePlayer => "1 player", "1 名選手";
        Players => "{} players", "{} 名選手";
        OneTile => "1 tile", "1 張牌";
        Tiles => "{} tiles", "{} 張牌";
        OneSession => "1 session", "1 個場次";
        Sessions => "{} sessions", "{} 個場次";
        /// A card, as its key names it.
        Card => "session {} table {}", "場次 {} 第 {} 枱";
        StagedCard => "{} session {} table {}", "{} 場次 {} 第 {} 枱";
        /// Where a referee's entry is, on the page.
        GameSeat => "game {}, seat {}", "第 {} 局，座位 {}";
        Game => "game {}", "第 {} 局";
        Games => "games {}", "第 {} 局";
        Line => "line {}", "第 {} 行";
        Lines => "lines {}", "第 {} 行";
        /// A workbook's rows.
        Row => "row {}", "第 {} 列";
        Rows => "rows {}", "第 {} 列";
        /// Where a value of a stored card is, on a referee's page (the
        /// card, then the seat of its player, or the game and seat of its
        /// line).
        CardSeat => "{}, seat {}", "{}，座位 {}";
        CardGameSeat => "{}, game {}, seat {}", "{}，第 {} 局，座位 {}";
        DidYouMean => "; did you mean {}?", "；是否指 {}？";
        /// As `DidYouMean`, when more entries are as near as those listed.
        DidYouMeanOfMore => "; did you mean {}? ({} more as near are not listed: check the name on the signed card)",
            "；是否指 {}？（另有 {} 個同樣相近的未列出：請核對已簽署計分卡上的姓名）";
        OrACharge => ", or a charge of {}", "，或罰 {} 分";
        OrAChargePlusRack => ", or a charge plus the rack: {}", "，或罰分加牌架：{}";
        FromTo => "{} to {}", "{} 至 {}";

        // How a cell is quoted in a message (a text, a number or a truth
        // value is shown as written).
        Blank => "blank", "空白";
        FullWidth => "{} (full-width characters: type the digits, +, - and . plainly)",
            "{}（全形字元：請以半形輸入數字、+、- 及 .）";
        /// A text that is a number once the letters O and l (or I) in it
        /// are read as the digits 0 and 1.
        LetterForDigit => "{} (the letter O or l typed for the digit 0 or 1? type the digits)",
            "{}（是否把字母 O 或 l 當作數字 0 或 1 輸入？請輸入數字）";
        DateCell => "the date {}", "日期 {}";
        DateNumberCell => "{} in a cell formatted as a date (format the cell as a number)",
            "{}，儲存格的格式是日期（請改為數字格式）";
        FormulaCell => "the formula {} with no saved value", "未存值的公式 {}";
        ErrorCell => "the error value {}", "錯誤值 {}";
        MergedCell => "part of the merged cells {} (a value belongs to one row: unmerge them and type each row's value)",
            "合併儲存格 {} 的一部分（每個值只屬於一列：請取消合併，逐列輸入）";

        // A value that cannot be read (check 2).
        WonFormula => "game won {} holds a formula with no saved value: open the file in a spreadsheet program and save it, or type the value",
            "勝局 {} 是未存值的公式：請用試算表程式開啟並儲存檔案，或直接輸入數值";
        TilesFormula => "tiles {} holds a formula with no saved value: open the file in a spreadsheet program and save it, or type the value",
            "餘牌 {} 是未存值的公式：請用試算表程式開啟並儲存檔案，或直接輸入數值";
        ScoreFormula => "score {} holds a formula with no saved value: open the file in a spreadsheet program and save it, or type the value",
            "得分 {} 是未存值的公式：請用試算表程式開啟並儲存檔案，或直接輸入數值";
        WonIs => "game won is {}; expected 1 or 0", "勝局為 {}；應為 1 或 0";
        TilesIs => "tiles is {}; expected a whole number of tiles from 0 to {}",
            "餘牌為 {}；應為 0 至 {} 的整數";
        ScoreBlank => "score is blank; expected a number such as +30, -5 or 5.5",
            "得分空白；應為數字，例如 +30、-5 或 5.5";
        ScoreIs => "score is {}; expected a number such as +30, -5 or 5.5",
            "得分為 {}；應為數字，例如 +30、-5 或 5.5";
        ScoreNotShare => "score is {}; a game's score is a whole number, or a half or a third when leaders share a pot (such as 5.5 or 3.33)",
            "得分為 {}；每局得分應為整數，領先者平分獎池時可為二分之一或三分之一（例如 5.5 或 3.33）";
        ScoreNotPenalty => "score is {}; expected whole penalty points, 0 or more",
            "得分為 {}；應為 0 或以上的整數罰分";

        // A line of a card that cannot be placed.
        LoneValue => "a line with one value only, {}: a note? keep notes apart from the card lines",
            "此列只有一個值 {}：是備註嗎？請把備註與計分卡的資料列分開";
        SessionBlank => "session is blank; expected a session such as S01 or 1",
            "場次空白；應為場次，例如 S01 或 1";
        TableBlank => "table is blank; expected a table number such as 7",
            "枱號空白；應為枱號，例如 7";
        GameIs => "game is {}; expected a game number 1, 2, 3...",
            "局數為 {}；應為局數 1、2、3……";
        SeatIs => "seat is {}; expected A, B, C or D", "座位為 {}；應為 A、B、C 或 D";
        PlayerBlank => "player is blank; expected a roster id or name",
            "選手空白；應為名冊上的編號或姓名";
        SeatChangesPlayer => "seat {} is {} here but {} at {}; a seat keeps its player for the whole card",
            "座位 {0} 在此為 {1}，但在 {3} 為 {2}；同一座位在整張計分卡上須為同一選手";
        SeatTwiceInGame => "seat {} of game {} is given twice (first at {}); expected one line per seat per game",
            "第 {1} 局的座位 {0} 重複出現（首次在 {2}）；每局每個座位只應有一行";
        LinesGivenAgain => "{} give again the games and seats of {} (a table pasted twice, or typed under another table's number?); expected one line per seat per game",
            "{}重複了{}的局數和座位（是整枱貼上了兩次，還是輸入在另一枱的枱號下？）；每局每個座位只應有一行";

        // The card (checks 1 and 7, the stage and the schedule).
        Seated => "{}: {} seated ({}); a table seats 3 or 4 players",
            "{}：{}入座（{}）；每枱應有 3 或 4 名選手";
        UnknownStage => "{}: stage \"{}\" is not one of this event's stages ({})",
            "{}：階段「{}」不是本賽事的階段（{}）";
        StageAtDesk => "; correct the card's stage, or list the stage in [rules] stages of tilerank.toml",
            "；請更正計分卡的階段，或在 tilerank.toml 的 [rules] stages 列出此階段";
        StageAtTable => "; correct the card's stage", "；請更正計分卡的階段";
        TitleStageNotPlayed => "the title \"{}\" says \"{}\", the {} stage, which is not one of this event's stages ({}); correct the title, or import the card with --stage",
            "標題「{}」所示的「{}」（{}）不是本賽事的階段（{}）；請更正標題，或以 --stage 匯入此計分卡";
        SessionOff => "session {} is not on this event's schedule (sessions S01 to {}: [sessions] count = {} in tilerank.toml); correct the card's session",
            "場次 {} 不在本賽事的賽程內（場次 S01 至 {}：tilerank.toml 的 [sessions] count = {}）；請更正計分卡的場次";
        TableOff => "table {} of session {} is not on this event's schedule (tables 1 to {} in each session: [sessions] tables = {} in tilerank.toml); correct the card's table",
            "第 {} 枱（場次 {}）不在本賽事的賽程內（每場次第 1 至 {} 枱：tilerank.toml 的 [sessions] tables = {}）；請更正計分卡的枱號";
        GamePastLast => "game {}: the {} rules play {} games per session",
            "第 {} 局：{} 規則每場次只打 {} 局";
        GameMissing => "{}: game {} missing; the {} rules play {} games per session (a player who left early is blank in the games not played)",
            "{}：缺少第 {} 局；{} 規則每場次打 {} 局（提早離場的選手，未打的局留空）";
        GameBlank => "{}: game {} is blank (nothing in {}); the {} rules play {} games per session: type each seat's game won, score and tiles (a player who left early is blank in the games not played)",
            "{}：第 {} 局空白（{} 沒有填寫）；{} 規則每場次打 {} 局：請填上各座位的勝局、得分和餘牌（提早離場的選手，未打的局留空）";
        SessionNotFileName => "session {} here, but the file {} is named for session {}: the card counts as {}, as its session cell says; correct this cell if the card is {}'s, or move the card to a file of its own session",
            "此處為場次 {}，但檔案 {} 的名稱是場次 {}：此計分卡按其場次欄計為 {}；若此卡屬於 {}，請更正此儲存格，否則請把此卡移到其場次的檔案";
        GamePlayers => "game {}: {} played ({}); a game needs 3 or 4",
            "第 {} 局：{}對局（{}）；每局需要 3 或 4 名選手";

        // The players (check 1).
        SeatedTwice => "{} ({}) sits at seat {} and at seat {}; each seat needs its own player",
            "{}（{}）同時坐在座位 {} 和座位 {}；每個座位須由不同選手入座";
        NotOnRoster => "player {} is not on the roster: expected a roster id or name{}",
            "選手 {} 不在名冊上：應為名冊上的編號或姓名{}";
        NameOfMany => "player name {} matches {} roster entries ({}): write the id instead",
            "選手姓名 {} 符合名冊上 {} 筆資料（{}）：請改填編號";
        NameOfManyNotSeat => "player name {} matches {} roster entries ({}), but seat {}'s other lines give {} ({}, at {}), who is not one of them; a seat keeps its player for the whole card",
            "選手姓名 {} 符合名冊上 {} 筆資料（{}），但座位 {} 的其他行填的是 {}（{}，見 {}），並非其中之一；同一座位在整張計分卡上須為同一選手";

        /// A message about a card, the card first.
        OfCard => "{}: {}", "{}：{}";
        /// A player on a later stage's card who did not go on to it; what
        /// to do follows ([`Msg::WithAdvice`]).
        Stranger => "{} plays the {} but did not go on from the {}",
            "{} 在 {} 出賽，但並未從 {} 晉級";
        StrangerAtDesk => " ({} went on; tilerank qualifiers --stage {} lists them): correct the card, or, if {} took the seat of one who went on and left, mark that player withdrawn on the roster",
            "（{} 人晉級；tilerank qualifiers --stage {} 會列出）：請更正計分卡；若 {} 是代替已晉級但離場的選手入座，請在名冊上將該選手標為退出";
        StrangerAtTable => " ({} went on): correct the card, or, if {} took the seat of one who went on and left, tell the desk",
            "（{} 人晉級）：請更正計分卡；若 {} 是代替已晉級但離場的選手入座，請告知記分台";
        StrangerSoFar => "{} plays the {} but is not among those going on from the {} as it stands",
            "{} 在 {} 出賽，但按目前的結果並未從 {} 晉級";
        StrangerSoFarAtDesk => " ({} going on; the {} is not complete yet, tilerank qualifiers --stage {} --allow-incomplete lists them): correct the card, or import the missing cards first",
            "（{} 人晉級；{} 尚未完成，tilerank qualifiers --stage {} --allow-incomplete 會列出）：請更正計分卡，或先匯入未到的計分卡";
        StrangerSoFarAtTable => " ({} going on; the {} is not complete yet): correct the card, or, if it is right, tell the desk",
            "（{} 人晉級；{} 尚未完成）：請更正計分卡；若計分卡無誤，請告知記分台";
        /// [`Msg::Stranger`] while the stage before has no card at all:
        /// who went on from it cannot be known.
        StrangerNoFrom => "{} plays the {} but no card of the {} was given, so who went on from it cannot be known",
            "{} 在 {} 出賽，但未提供 {} 的計分卡，因此無法得知有哪些選手晉級";
        StrangerNoFromAtDesk => ": give the {}'s cards with the {}'s, or work in the event folder that holds them (--event DIR)",
            "：請將 {} 的計分卡連同 {} 的計分卡一併提供，或在存有這些計分卡的賽事資料夾中執行（--event DIR）";
        StrangerNoFromAtTable => ": tell the desk, which has no card of the {} yet",
            "：請告知記分台（記分台尚未有 {} 的計分卡）";
        /// A later stage's card of a table past its seating: the stage,
        /// its tables, how many it seats, the stage before.
        TableOffSeating => "the {} has tables 1 to {} (the seating of the {} who go on from the {}); correct the card's table",
            "{0} 只有第 1 至 {1} 枱（從 {3} 晉級的 {2} 名選手的座位安排）；請更正計分卡的枱號";
        /// [`Msg::TableOffSeating`] of a stage of one table: the stage,
        /// how many it seats, the stage before.
        TableOffSeatingOne => "the {} has one table, table 1 (the seating of the {} who go on from the {}); correct the card's table",
            "{0} 只有第 1 枱（從 {2} 晉級的 {1} 名選手的座位安排）；請更正計分卡的枱號";
        /// Cards that change who went on to a later stage whose cards are
        /// stored (played by the list before): the stages, and who now
        /// goes on instead ([`Msg::NowGoesOn`], or nothing).
        WentOnChanges => "with the cards imported, who went on to the {} changes, and a player on its stored cards no longer goes on (listed){}: nothing imported",
            "匯入這些計分卡後，晉級 {} 的名單會改變，其已儲存的計分卡上有選手不再晉級（已列出）{}：未匯入任何計分卡";
        /// Stages, the last two joined so (`the semi and the final`).
        AndThe => "{} and the {}", "{} 和 {}";
        NowGoesOn => "; {} now goes on, with no card yet", "；{} 現在晉級，但尚無計分卡";
        NowGoOn => "; {} now go on, with no card yet", "；{} 現在晉級，但尚無計分卡";
        WentOnAtDesk => "Import them with the {}'s cards corrected (tilerank import --replace FILE CORRECTED-FILE --reason \"...\"), or leave the cards as stored",
            "請連同已更正的 {} 計分卡一併匯入（tilerank import --replace FILE CORRECTED-FILE --reason \"...\"），或保留已儲存的計分卡";
        /// [`Msg::WentOnAtDesk`] when players now go on who did not:
        /// the stages twice, then those players.
        WentOnAtDeskOrWithdraw => "Import them with the {}'s cards corrected (tilerank import --replace FILE CORRECTED-FILE --reason \"...\"); or, if the {} stands as played, first mark {} withdrawn on the roster (tilerank roster FILE), so that who went on stays as it was; or leave the cards as stored",
            "請連同已更正的 {} 計分卡一併匯入（tilerank import --replace FILE CORRECTED-FILE --reason \"...\"）；或若 {} 的賽果照實維持，請先在名冊上將 {} 標為退出（tilerank roster FILE），使晉級名單維持原樣；或保留已儲存的計分卡";
        WentOnAtTable => "Check the card against the signed paper card, and tell the desk: the director settles it",
            "請與已簽署的紙本計分卡核對，並告知記分台，由裁判長決定";
        /// The event's stored cards fail today's settings or roster.
        StoredCardsWrong => "the event's stored cards have errors under the current settings and roster (listed here): nothing imported",
            "賽事已儲存的計分卡在目前的設定和名冊下有錯誤（列於此處）：未匯入任何計分卡";
        StoredCardsAtDesk => "Fix tilerank.toml or the roster, or replace the cards",
            "請修正 tilerank.toml 或名冊，或取代這些計分卡";
        StoredCardsAtTable => "Tell the desk: no card is stored until the director mends the event's settings or roster",
            "請告知記分台：裁判長修正賽事設定或名冊之前，不會儲存任何計分卡";
        /// The two refusals above as a referee's phone is told them: of
        /// the one card posted, not of files imported ([`Part::Advice`]).
        WentOnChangesPosted => "with this card, who went on to the {} changes, and a player on its stored cards no longer goes on (listed){}: this card is not stored",
            "按此計分卡，晉級 {} 的名單會改變，其已儲存的計分卡上有選手不再晉級（已列出）{}：此計分卡未儲存";
        StoredCardsWrongPosted => "the event's stored cards have errors under the current settings and roster (listed here): this card is not stored",
            "賽事已儲存的計分卡在目前的設定和名冊下有錯誤（列於此處）：此計分卡未儲存";

        // A card that differs from the event's.
        /// What is wrong, then what to do (the advice's words begin with
        /// their own stop: `; correct...`, ` (...): correct...`).
        WithAdvice => "{}{}", "{}{}";
        /// What is wrong, then what to do, a sentence of its own.
        ThenAdvice => "{}. {}", "{}。{}";
        /// What differs follows, a line per game and seat, the other
        /// version's value first ([`Msg::GameSeatSays`], the lines joined
        /// by [`Msg::DiffersNextLine`]), each indented.
        EnteredDiffers => "{} was entered by referee {} and differs (their card vs this one):\n  {}\n",
            "{} 已由裁判 {} 輸入，內容不同（其計分卡對此計分卡）：\n  {}\n";
        ImportedDiffers => "{} was imported before and differs ({} vs this one):\n  {}\n",
            "{} 之前已匯入，內容不同（{}對此計分卡）：\n  {}\n";
        /// The lines of what differs so far, then the next one.
        DiffersNextLine => "{}\n  {}", "{}\n  {}";
        /// The event's card a card differs from, and where it came from
        /// ([`Msg::ImportedFrom`], [`Msg::EnteredBy`]).
        EventsCard => "the event's card", "賽事的計分卡";
        EventsCardFrom => "the event's card, {},", "賽事的計分卡（{}）";
        /// Where a stored card came from: the file (and sheet) it was
        /// imported from, or the referee who entered it, and when (UTC).
        ImportedFrom => "imported from {} on {}", "於 {1} 從 {0} 匯入";
        EnteredBy => "entered by referee {} on {}", "於 {1} 由裁判 {0} 輸入";
        KeptForBoard => "this typing is kept for the director's board (tilerank serve --entry), or give --replace --reason \"...\" to replace the referee's card",
            "這次輸入會保留在裁判長的看板上（tilerank serve --entry），或加上 --replace --reason \"...\" 取代裁判輸入的計分卡";
        GiveReplace => "give --replace --reason \"...\" to replace it (the old card is kept in the event's database)",
            "加上 --replace --reason \"...\" 以取代（舊的計分卡仍保存在賽事資料庫中）";
        NoPlayerShared => "no player of it is on the stored card: is it another table's, session's or stage's card? Correct what its header says; give --replace --reason \"...\" only if it is this table's card after all",
            "其選手無一在已儲存的計分卡上：是否為另一枱、另一場次或另一階段的計分卡？請更正其表頭；若確為本枱的計分卡，才加上 --replace --reason \"...\" 取代";
        DiffersAtTable => "check this card against the signed paper card; if it is right, tell the desk: the director settles it on the board",
            "請與已簽署的紙本計分卡核對；若此計分卡正確，請告知記分台，由裁判長在看板上決定";
        /// The desk's decision, as a referee's phone is told it.
        DeskAgreed => "the desk's typing of the paper card agreed", "記分台輸入的紙本計分卡相符";
        DecidedBefore => "The director has decided this table already ({}): this version of the card was set aside then, and is not kept again. If it is right, ask the director to look at the table again.",
            "裁判長已就此枱作出決定（{}）：此版本的計分卡當時未被採用，不會再次保留。若此版本正確，請告知裁判長重新審視此枱。";

        // What a file, a sheet or the roster is said to be.
        /// The encoding a file was read in, then where its first byte
        /// that is not UTF-8 is ([`Msg::FirstNotUtf8`], or nothing).
        NotUtf8 => "not UTF-8: read as {}{}; if names look garbled, save the file as CSV UTF-8 and read it again",
            "不是 UTF-8：以 {} 讀取{}；如果姓名顯示為亂碼，請將檔案另存為 CSV UTF-8 再讀取";
        NotUtf8FromFew => "not UTF-8: read as {}{}; if names look garbled, save the file as CSV UTF-8 and read it again (the encoding is guessed from the letters that are not ASCII, and this file has few of them: a name or two can read as names in more than one encoding)",
            "不是 UTF-8：以 {} 讀取{}；如果姓名顯示為亂碼，請將檔案另存為 CSV UTF-8 再讀取（編碼是從非 ASCII 的字元猜測的，而此檔案這類字元很少：一兩個姓名在不止一種編碼下都可能讀得通）";
        /// The byte (`0xE9`) and the character of the line the note is at.
        FirstNotUtf8 => " (the first byte that is not UTF-8 is {}, character {} of this line: mend it, if the rest of the file is UTF-8)",
            "（第一個不是 UTF-8 的位元組是 {}，即此行第 {} 個字元：如果檔案其餘部分是 UTF-8，請修正它）";
        HiddenSheet => "the sheet is hidden in the workbook: not read (unhide it, in the spreadsheet program, to have it read)",
            "此工作表在活頁簿中已隱藏：未讀取（請在試算表程式中取消隱藏，才會讀取）";
        RosterNotCards => "this is a roster, not cards: it was not read here (give it with --roster, or store it in the event folder with tilerank roster FILE)",
            "這是名冊，不是計分卡：此處不讀取（請以 --roster 提供，或以 tilerank roster FILE 存入賽事資料夾）";
        ExportNotCards => "this is a workbook tilerank exported (its Settings sheet names tilerank {}), not cards: it was not read (the cards it lists are in the files it was made from; keep exports apart from the card files)",
            "這是 tilerank 匯出的活頁簿（其 Settings 工作表載明 tilerank {}），不是計分卡：未讀取（其所列的計分卡在產生它的檔案中；請將匯出檔與計分卡檔案分開存放）";
        NothingTyped => "nothing typed yet (a blank score card, as printed): skipped; its table has no card until its games are typed",
            "尚未填寫（與印出時相同的空白計分卡）：已略過；填上各局之前，此枱沒有計分卡";
        NothingTypedInFile => "nothing typed yet: {}, as printed (no game won, score or tiles typed); nothing was read: type the games, then give the file again",
            "尚未填寫：{}（沒有填上任何勝局、得分或餘牌），與印出時相同；未讀取任何計分卡：請填上各局，再提供此檔案";
        OneBlankCard => "its score card is blank", "其計分卡是空白的";
        BlankCards => "its {} score cards are all blank", "其 {} 張計分卡全是空白的";
        NotARoster => "not a roster (expected a header with id and name): skipped",
            "不是名冊（應有含 id 和 name 的標題列）：已略過";
        UnknownColumn => "unknown column {} ignored", "不明欄位 {}，已略過";
        ColumnTwice => "column {} is given twice (the one read is at {}); this one is ignored",
            "欄位 {} 重複出現（讀取的是 {} 的那一欄）；此欄已略過";
        SecondCard => "a second score card starts here, below the signature line of the first: it is not read (one card per sheet: move it to a sheet of its own)",
            "第二張計分卡從這裡開始，位於第一張的簽名欄之下：未讀取（每個工作表一張計分卡：請移到獨立的工作表）";
        GameBelowSignature => "game {} is below the signature line: it is not read (the games go above it)",
            "第 {} 局位於簽名欄之下：未讀取（各局應填在簽名欄之上）";
        OneImportedAlready => "1 card imported already, as typed here: the event counts it once",
            "1 張計分卡已匯入，內容與此處相同：賽事只計算一次";
        ImportedAlready => "{} cards imported already, as typed here: the event counts each once",
            "{} 張計分卡已匯入，內容與此處相同：賽事每張只計算一次";
        NoEventDate => "the event has no date (give --date YYYY-MM-DD, or [event] date in the event's tilerank.toml): ages were not checked",
            "賽事沒有日期（請加上 --date YYYY-MM-DD，或在賽事的 tilerank.toml 設定 [event] date）：未檢查年齡";
        AgeGroupsNoDate => "the event has age groups but no date: give --date YYYY-MM-DD, or set [event] date = \"YYYY-MM-DD\" in the event's tilerank.toml; ages are taken on the event date",
            "賽事設有年齡組但沒有日期：請加上 --date YYYY-MM-DD，或在賽事的 tilerank.toml 設定 [event] date = \"YYYY-MM-DD\"；年齡按賽事日期計算";
        AgeGroupsNoRoster => "the event has age groups ({}), chosen by each player's birth date or age, but no roster: give one with a birth_date or age column (--roster FILE; in an event folder, tilerank roster FILE)",
            "賽事設有年齡組（{}），按每名選手的出生日期或年齡分組，但沒有名冊：請提供有 birth_date 或 age 欄的名冊（--roster 檔案；在賽事資料夾中用 tilerank roster 檔案）";
        MixedGroups => "{}: its players are in different age groups ({}); each group plays its own tables: a player typed at the wrong table, or a wrong id?",
            "{}：選手分屬不同年齡組（{}）；每個組別各自分枱比賽：選手記錯了枱，還是編號錯了？";

        // Cards that add up under another profile than the one in force.
        CardAddsUp => "the card rejected adds up under the {} profile, not under the {} rules: give --profile {}",
            "被拒的計分卡按 {} 規則計分才相符，不符 {} 規則：請加上 --profile {}";
        CardsAddUp => "{} add up under the {} profile, not under the {} rules: give --profile {}",
            "{}按 {} 規則計分才相符，不符 {} 規則：請加上 --profile {}";
        // (the same, said by `import`: an event folder's rules are its
        // tilerank.toml, which `--profile` does not change)
        CardAddsUpInEvent => "the card rejected adds up under the {} profile, not under this event's rules (tilerank.toml, written from {}): if the event plays {}'s rules, make its settings from that profile (tilerank profiles show {}) and import again",
            "被拒的計分卡按 {} 規則計分才相符，不符本賽事的規則（tilerank.toml，由 {} 寫成）：若賽事採用 {} 規則，請按該規則重寫設定（tilerank profiles show {}）後再匯入";
        CardsAddUpInEvent => "{} add up under the {} profile, not under this event's rules (tilerank.toml, written from {}): if the event plays {}'s rules, make its settings from that profile (tilerank profiles show {}) and import again",
            "{}按 {} 規則計分才相符，不符本賽事的規則（tilerank.toml，由 {} 寫成）：若賽事採用 {} 規則，請按該規則重寫設定（tilerank profiles show {}）後再匯入";
        // (the same, when the event's own settings, which the command's
        // --profile or --rules set aside, score the cards as they are)
        CardAddsUpOwn => "the card rejected adds up under the event's own settings ({}, the {} profile), not under the {} rules: drop {}",
            "被拒的計分卡按賽事本身的設定（{}，{} 規則）計分才相符，不符 {} 規則：請去掉 {}";
        CardsAddUpOwn => "{} add up under the event's own settings ({}, the {} profile), not under the {} rules: drop {}",
            "{}按賽事本身的設定（{}，{} 規則）計分才相符，不符 {} 規則：請去掉 {}";
        CardsRejected => "the {} cards rejected", "被拒的 {} 張計分卡";
        SomeCardsRejected => "{} of the {} cards rejected", "被拒的 {1} 張計分卡中有 {0} 張";

        // A game refused that one sign mended makes pass (hints: said
        // after the errors, never an error of their own).
        SignLost => "{} game {}: with seat {}'s score {} instead of {}, the game adds up: did it lose its minus sign?",
            "{} 第 {} 局：座位 {} 的得分若為 {}（而非 {}），此局即可相符：是否漏了負號？";
        SignStray => "{} game {}: with seat {}'s score {} instead of {}, the game adds up: was its minus sign typed by mistake?",
            "{} 第 {} 局：座位 {} 的得分若為 {}（而非 {}），此局即可相符：負號是否誤加？";
        SignMoved => "{} game {}: with seat {}'s score {} instead of {} and seat {}'s {} instead of {}, the game adds up: was the minus sign of seat {} typed on seat {}'s line?",
            "{} 第 {} 局：座位 {} 的得分若為 {}（而非 {}），座位 {} 的得分若為 {}（而非 {}），此局即可相符：座位 {} 的負號是否誤填在座位 {} 的一行？";
        /// The error at a score whose sign, mended, makes a game where
        /// nobody went out pass (the leaders found from a lost minus are
        /// the wrong seats: nothing is said of them).
        SignHere => "score is {}; with {} the game adds up (see the hint)",
            "得分為 {}；若為 {}，此局即可相符（見提示）";

        // A card a referee posts.
        EntryTooLarge => "the card is {} bytes; a card is at most {}",
            "計分卡有 {} 位元組；每張計分卡最多 {} 位元組";
        EntryOneCard => "an entry holds one card; this one holds {}: post each card by itself",
            "每次只能送出一張計分卡，這次有 {} 張：請逐張送出";
        /// A referee's card that differs from the event's card of its
        /// table: who holds that version, and what to do.
        HeldByDesk => "Not stored: the desk has a different card for {}, typed from the signed paper card. Check yours against the paper card; if yours is right, tell the desk: the director settles it on the board.",
            "未儲存：記分台已按已簽署的紙本計分卡輸入 {}，內容與此不同。請與紙本計分卡核對；若你輸入的正確，請告知記分台，由裁判長在看板上決定。";
        HeldByReferee => "Not stored: referee {} entered a different card for {} before you. Yours is kept for the director: tell the desk, and wait for the director's decision on the board.",
            "未儲存：裁判 {} 較早前已輸入 {}，內容與此不同。你的計分卡已保留給裁判長：請告知記分台，並等候裁判長在看板上決定。";
        HeldByYou => "Not stored: your own card for {} was checked already (the desk's typing of the paper card agreed, or the director decided), and it is no longer changed from the phone. If this one is right, tell the desk: the director settles it on the board.",
            "未儲存：你輸入的 {} 已經核對（記分台輸入的紙本計分卡相符，或裁判長已作決定），不能再從手機更改。若此版本正確，請告知記分台，由裁判長在看板上決定。";
        /// What differs, the other version's value first.
        WhatDiffers => "What differs ({} vs this one):", "不同之處（{} 對此計分卡）：";
        DesksCard => "the desk's card", "記分台的計分卡";
        RefereesCard => "referee {}'s card", "裁判 {} 的計分卡";
        YourCheckedCard => "your checked card", "你已核對的計分卡";
        GameSeatSays => "game {}, seat {}: {}", "第 {} 局，座位 {}：{}";
        ValuesDiffer => "{} {} vs {}", "{} {} 對 {}";
        FieldPlayer => "player", "選手";
        FieldWon => "won", "勝局";
        FieldScore => "score", "得分";
        FieldTiles => "tiles left", "餘牌";

        // Across cards (check 1).
        TableTwice => "{} is given twice (also at {}); a table plays once per session",
            "{} 重複出現（另見 {}）；每枱每場次只打一次";
        /// Files that each give one session's tables (several typings of
        /// it in one folder): said once, after its tables' errors.
        SessionInFiles => "session {} is given by {} files ({}): {} given twice; import one typing of each session (tilerank compare FILE FILE says where two typings differ)",
            "場次 {} 由 {} 個檔案提供（{}）：{} 重複；每個場次只匯入一份輸入（tilerank compare 檔案 檔案 可找出兩份輸入的不同之處）";
        OneTable => "1 table", "1 張枱";
        TablesCount => "{} tables", "{} 張枱";
        TwoTables => "{} ({}) is seated at table {} and at table {} ({}) in session {}; a player sits at one table per session",
            "{}（{}）坐在第 {} 枱，又坐在第 {} 枱（{}），同屬場次 {}；每名選手每場次只坐一枱";
        /// Cards of a session seating the same players as cards of
        /// another: said once for the pair of sessions, besides each
        /// player's error.
        SessionRetyped => "{} cards of session {} seat the same players as cards of session {} (the first: {}): is their session column wrong, or were they typed twice? Each of their players is an error",
            "場次 {1} 有 {0} 張計分卡的選手與場次 {2} 的計分卡相同（第一張見 {3}）：是場次欄輸入錯誤，還是同一批計分卡輸入了兩次？每名選手各列一項錯誤";
        SessionsPerPlayer => "{} ({}) plays in {} and in {} ({}); each player plays {} of the {} ([sessions] per_player): the same card typed under two sessions, or a wrong id?",
            "{}（{}）在 {} 出賽，又在 {}（{}）出賽；每名選手只打 {}（{}，見 [sessions] per_player）：是同一張計分卡以兩個場次輸入了兩次，還是選手編號有誤？";

        // A game (checks 3 to 5).
        OutScoresZero => "score is {}; seat {} went out (0 tiles), so expected 0",
            "得分為 {}；座位 {} 已出完牌（0 張餘牌），應為 0";
        RackScores => "score is {} with {} left: that rack scores {} to {} penalty points{} (are the score and tiles columns swapped?)",
            "得分為 {}，餘牌 {}：這樣的牌架應得 {} 至 {} 罰分{}（得分和餘牌兩欄是否對調了？）";
        LineLeftOut => "game {} has no line for seat {} ({}), who plays {} of this card, and its other scores add up to {}, not 0: type seat {}'s line (when a player leaves early, the others' scores add up to 0 without theirs)",
            "第 {} 局沒有座位 {}（{}）的一行，而該選手在此計分卡打了{}，此局其他得分總和為 {}，而非 0：請補上座位 {} 的一行（選手提早離場時，其餘選手的得分總和仍為 0）";
        SumNotZero => "game {}: the scores add up to {}, expected 0 ({})",
            "第 {} 局：得分總和為 {}，應為 0（{}）";
        BothOut => "game {}: seats {} both have 0 tiles; only the player who went out has none",
            "第 {} 局：座位 {} 都沒有餘牌；只有出完牌的選手餘牌為 0";
        AllOut => "game {}: seats {} all have 0 tiles; only the player who went out has none",
            "第 {} 局：座位 {} 都沒有餘牌；只有出完牌的選手餘牌為 0";
        TilesBlankKnocked => "tiles is blank; expected the number of tiles left on {}'s rack (blank only for a knocked rack, charged {})",
            "餘牌空白；應填座位 {} 牌架上剩餘的牌數（只有敲牌的牌架可留空，罰 {} 分）";
        TilesBlank => "tiles is blank; expected the number of tiles left on {}'s rack",
            "餘牌空白；應填座位 {} 牌架上剩餘的牌數";
        OutNotWon => "game won is 0, expected 1: seat {} went out (0 tiles)",
            "勝局為 0，應為 1：座位 {} 已出完牌（0 張餘牌）";
        OutScore => "score is {}; seat {} went out (0 tiles), so expected {}, what the others lost",
            "得分為 {}；座位 {} 已出完牌（0 張餘牌），應為 {}，即其他人失分的總和";
        OutGains => "score is {}; seat {} went out (0 tiles), so expected a gain (above 0)",
            "得分為 {}；座位 {} 已出完牌（0 張餘牌），應為正分（高於 0）";
        OnlyOutWon => "game won is 1, expected 0: seat {} went out, so only {} won",
            "勝局為 1，應為 0：座位 {} 已出完牌，只有 {} 勝出";
        ExpectedLoss => "score is {}; expected a loss (below 0): seat {} went out",
            "得分為 {}；應為失分（低於 0）：座位 {} 已出完牌";
        RackLoses => "score is {} with {} left: that rack loses {} to {} points{} (are the score and tiles columns swapped?)",
            "得分為 {}，餘牌 {}：這樣的牌架應失 {} 至 {} 分{}（得分和餘牌兩欄是否對調了？）";
        OthersLose => "score is {}; in game {} nobody went out and the leaders ({}) score {}, so every other seat loses points",
            "得分為 {}；第 {} 局無人出完牌，領先者（{}）得 {} 分，其他座位都應失分";
        WonNobodyOut => "game won is {}, expected {}: nobody went out and {}",
            "勝局為 {}，應為 {}：無人出完牌，而{}";
        NotALeader => "seat {} ({}) is not a leader; the leaders ({}) score {}",
            "座位 {}（{}）不是領先者；領先者（{}）得 {} 分";
        LeaderFewest => "seat {} is a leader ({}) with the fewest tiles ({})",
            "座位 {} 是領先者（{}），餘牌最少（{} 張）";
        LeaderMoreOne => "seat {} is a leader ({}) but has {} tiles, and {} has {}",
            "座位 {} 是領先者（{}），但餘牌 {} 張，而 {} 只有 {} 張";
        LeaderMoreMany => "seat {} is a leader ({}) but has {} tiles, and {} have {}",
            "座位 {} 是領先者（{}），但餘牌 {} 張，而 {} 只有 {} 張";
        LeaderBlankOne => "seat {} is a leader ({}) but has no tiles, and {} has {}",
            "座位 {} 是領先者（{}），但未填餘牌，而 {} 餘牌 {} 張";
        LeaderBlankMany => "seat {} is a leader ({}) but has no tiles, and {} have {}",
            "座位 {} 是領先者（{}），但未填餘牌，而 {} 餘牌 {} 張";
        TiedLeadersShare => "score is {}; in game {} the leaders ({}, fewest tiles) share the pot, and seat {} scores {}",
            "得分為 {}；第 {} 局領先者（{}，餘牌最少）平分獎池，而座位 {} 得 {} 分";
        NotFewest => "score is {}; in game {} seat {} is not a leader (fewest tiles: {}), so it loses points",
            "得分為 {}；第 {} 局座位 {} 不是領先者（餘牌最少者：{}），應失分";
        FewestWon => "game won is {}, expected {}: nobody went out, and the leaders ({}) have the fewest tiles ({})",
            "勝局為 {}，應為 {}：無人出完牌，領先者（{}）餘牌最少（{} 張）";
    }
}

/// A message and its parts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Said {
    pub msg: Msg,
    pub parts: Vec<Part>,
}

/// A part of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Part {
    /// Shown as written in every language: a score, a seat, a number, a
    /// name, a cell's text in quotes.
    Text(String),
    /// A phrase said in each language's words.
    Said(Said),
    /// Parts in a list, the last two joined by a phrase of two parts
    /// ([`Msg::And`], [`Msg::Or`]), the others by the language's comma;
    /// [`Msg::Nothing`] when there are none.
    List(Vec<Part>, Msg),
    /// Parts joined by a phrase of two parts each time: `1 or 2 or 3`.
    Each(Vec<Part>, Msg),
    /// A stage as the event's settings name it: in English as written
    /// (`semi`), in another language in its words when it is a known one
    /// (`準決賽`), as the pages name it ([`Lang::stage`]).
    Stage(String),
    /// What to do, as the director is told it at the desk (the command to
    /// run), and as a referee is told it on their phone, where no command
    /// runs (tell the desk): said as the desk's, except in the live
    /// desk's answers to a phone, which say the table's
    /// (`event_folder::entry`). The finding it follows is the same for
    /// both; only what became of the cards may be said apart too (the
    /// desk's files, `nothing imported`; the phone's one card, `this card
    /// is not stored`).
    Advice { desk: Said, table: Said },
}

impl Said {
    /// Message `msg` with `parts`, one a `{}` of its words.
    pub fn new(msg: Msg, parts: impl IntoIterator<Item = Part>) -> Said {
        let parts: Vec<Part> = parts.into_iter().collect();
        debug_assert_eq!(places(msg.words(Lang::En)).len(), parts.len(), "{msg:?}");
        Said { msg, parts }
    }

    /// `said` of the card `key`: `session S01 table 3: ...`.
    pub fn of_card(key: &crate::domain::CardKey, said: Said) -> Said {
        Said::new(Msg::OfCard, [key.said(), Part::Said(said)])
    }

    /// The message in `lang`'s words.
    pub fn say(&self, lang: Lang) -> String {
        let mut out = String::new();
        self.write(lang, &mut out);
        out
    }

    fn write(&self, lang: Lang, out: &mut String) {
        crate::lang::fill_with(self.msg.words(lang), &self.parts, out, |p, out| {
            p.write(lang, out)
        });
    }
}

impl fmt::Display for Said {
    /// In English.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.say(Lang::En))
    }
}

impl Part {
    /// A part shown as written.
    pub fn text(t: impl fmt::Display) -> Part {
        Part::Text(t.to_string())
    }

    /// `n` things: `one` for one, else `many` with `n` in it.
    pub fn count(n: usize, one: Msg, many: Msg) -> Part {
        if n == 1 {
            Part::Said(Said::new(one, []))
        } else {
            Part::Said(Said::new(many, [Part::text(n)]))
        }
    }

    /// Phrase `msg` with `parts`.
    pub fn said(msg: Msg, parts: impl IntoIterator<Item = Part>) -> Part {
        Part::Said(Said::new(msg, parts))
    }

    /// Advice of what to do, `desk`'s at the desk and `table`'s to a
    /// referee's phone ([`Part::Advice`]).
    pub fn advice(desk: Said, table: Said) -> Part {
        Part::Advice { desk, table }
    }

    /// The part in `lang`'s words.
    pub fn say(&self, lang: Lang) -> String {
        let mut out = String::new();
        self.write(lang, &mut out);
        out
    }

    fn write(&self, lang: Lang, out: &mut String) {
        match self {
            Part::Text(t) => out.push_str(t),
            Part::Stage(s) if lang == Lang::En => out.push_str(s),
            Part::Stage(s) => out.push_str(lang.stage(s)),
            Part::Said(s) => s.write(lang, out),
            Part::Advice { desk, .. } => desk.write(lang, out),
            Part::List(parts, last) => match parts.split_last() {
                None => Said::new(Msg::Nothing, []).write(lang, out),
                Some((only, [])) => only.write(lang, out),
                Some((final_part, rest)) => {
                    let comma = match lang {
                        Lang::En => ", ",
                        Lang::ZhHant => "、",
                    };
                    let mut head = String::new();
                    for (i, p) in rest.iter().enumerate() {
                        if i > 0 {
                            head.push_str(comma);
                        }
                        p.write(lang, &mut head);
                    }
                    Said::new(*last, [Part::Text(head), final_part.clone()]).write(lang, out);
                }
            },
            Part::Each(parts, by) => {
                let mut said = String::new();
                for (i, p) in parts.iter().enumerate() {
                    said = if i == 0 {
                        p.say(lang)
                    } else {
                        Said::new(*by, [Part::Text(said), p.clone()]).say(lang)
                    };
                }
                out.push_str(&said);
            }
        }
    }
}

impl fmt::Display for Part {
    /// In English.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.say(Lang::En))
    }
}

impl From<String> for Part {
    fn from(t: String) -> Part {
        Part::Text(t)
    }
}

impl From<&str> for Part {
    fn from(t: &str) -> Part {
        Part::Text(t.to_string())
    }
}

impl From<Said> for Part {
    fn from(s: Said) -> Part {
        Part::Said(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_language_takes_the_same_parts() {
        for &msg in Msg::ALL {
            crate::lang::assert_same_parts(&format!("{msg:?}"), |lang| msg.words(lang));
        }
    }

    #[test]
    fn a_language_may_say_the_parts_in_another_order() {
        let said = Said::new(
            Msg::SeatTwiceInGame,
            [Part::from("B"), Part::text(2), Part::from("S01.csv:4")],
        );
        assert_eq!(
            said.to_string(),
            "seat B of game 2 is given twice (first at S01.csv:4); expected one line per seat per game"
        );
        assert_eq!(
            said.say(Lang::ZhHant),
            "第 2 局的座位 B 重複出現（首次在 S01.csv:4）；每局每個座位只應有一行"
        );
    }

    /// A run of lines given again, as the reader says it: the card, the
    /// run's lines, the lines it gives again; in Chinese too.
    #[test]
    fn lines_given_again_are_said_in_each_language() {
        let said = Said::new(
            Msg::OfCard,
            [
                Part::said(Msg::Card, [Part::from("S05"), Part::from("7")]),
                Part::said(
                    Msg::LinesGivenAgain,
                    [
                        Part::said(Msg::Lines, [Part::List(vec!["350-361".into()], Msg::And)]),
                        Part::said(
                            Msg::Rows,
                            [Part::List(vec!["2-5".into(), "10-13".into()], Msg::And)],
                        ),
                    ],
                ),
            ],
        );
        assert_eq!(
            said.to_string(),
            "session S05 table 7: lines 350-361 give again the games and seats of rows 2-5 and 10-13 (a table pasted twice, or typed under another table's number?); expected one line per seat per game"
        );
        assert_eq!(
            said.say(Lang::ZhHant),
            "場次 S05 第 7 枱：第 350-361 行重複了第 2-5 和 10-13 列的局數和座位（是整枱貼上了兩次，還是輸入在另一枱的枱號下？）；每局每個座位只應有一行"
        );
        let said = Said::new(
            Msg::NameOfManyNotSeat,
            [
                "\"Wong Ka Yan\"".into(),
                Part::text(2),
                "P0003, P0009".into(),
                "C".into(),
                "\"P0005\"".into(),
                "陳大文".into(),
                "S01.csv:8:5".into(),
            ],
        );
        assert_eq!(
            said.say(Lang::ZhHant),
            "選手姓名 \"Wong Ka Yan\" 符合名冊上 2 筆資料（P0003, P0009），但座位 C 的其他行填的是 \"P0005\"（陳大文，見 S01.csv:8:5），並非其中之一；同一座位在整張計分卡上須為同一選手"
        );
    }

    /// Advice is said as the desk's in every command; the table's is
    /// for a referee's phone only (`event_folder::entry`).
    #[test]
    fn advice_is_the_desks_wherever_a_command_says_it() {
        let said = Said::new(
            Msg::WithAdvice,
            [
                Part::said(
                    Msg::UnknownStage,
                    [
                        Part::said(
                            Msg::StagedCard,
                            [Part::Stage("semi".into()), "S01".into(), "2".into()],
                        ),
                        Part::Stage("semi".into()),
                        "prelim, final".into(),
                    ],
                ),
                Part::advice(
                    Said::new(Msg::StageAtDesk, []),
                    Said::new(Msg::StageAtTable, []),
                ),
            ],
        );
        assert_eq!(
            said.to_string(),
            "semi session S01 table 2: stage \"semi\" is not one of this event's stages (prelim, final); correct the card's stage, or list the stage in [rules] stages of tilerank.toml"
        );
        assert_eq!(
            said.say(Lang::ZhHant),
            "準決賽場次 S01 第 2 枱：階段「準決賽」不是本賽事的階段（prelim, final）；請更正計分卡的階段，或在 tilerank.toml 的 [rules] stages 列出此階段"
        );
    }

    /// A later stage's player while the stage before has no card at all:
    /// said so, with what to do, in each language.
    #[test]
    fn a_player_of_a_stage_whose_stage_before_has_no_card() {
        let (from, stage) = (Part::Stage("prelim".into()), Part::Stage("final".into()));
        let said = Said::new(
            Msg::WithAdvice,
            [
                Part::said(
                    Msg::StrangerNoFrom,
                    ["H01 Chan Tai Man".into(), stage.clone(), from.clone()],
                ),
                Part::advice(
                    Said::new(Msg::StrangerNoFromAtDesk, [from.clone(), stage]),
                    Said::new(Msg::StrangerNoFromAtTable, [from]),
                ),
            ],
        );
        assert_eq!(
            said.to_string(),
            "H01 Chan Tai Man plays the final but no card of the prelim was given, so who went on from it cannot be known: give the prelim's cards with the final's, or work in the event folder that holds them (--event DIR)"
        );
        assert_eq!(
            said.say(Lang::ZhHant),
            "H01 Chan Tai Man 在決賽出賽，但未提供初賽的計分卡，因此無法得知有哪些選手晉級：請將初賽的計分卡連同決賽的計分卡一併提供，或在存有這些計分卡的賽事資料夾中執行（--event DIR）"
        );
    }

    #[test]
    fn chinese_words_are_not_english() {
        // (a message copied without translating would show English on a
        // Chinese page; the phrases of words only are checked)
        for &msg in Msg::ALL {
            let en = msg.words(Lang::En);
            if en.chars().any(|c| c.is_ascii_alphabetic()) {
                assert_ne!(msg.words(Lang::ZhHant), en, "{msg:?}");
            }
        }
    }

    #[test]
    fn lists_are_joined_as_each_language_joins_them() {
        let seats = |n: usize| -> Part {
            Part::List(
                ["A", "B", "C"][..n]
                    .iter()
                    .map(|&s| Part::from(s))
                    .collect(),
                Msg::And,
            )
        };
        assert_eq!(seats(0).say(Lang::En), "none");
        assert_eq!(seats(0).say(Lang::ZhHant), "無");
        assert_eq!(seats(1).say(Lang::En), "A");
        assert_eq!(seats(2).say(Lang::En), "A and B");
        assert_eq!(seats(3).say(Lang::En), "A, B and C");
        assert_eq!(seats(3).say(Lang::ZhHant), "A、B 和 C");
        let charges = Part::Each(vec![Part::text(5), Part::text(10), Part::text(20)], Msg::Or);
        assert_eq!(charges.say(Lang::En), "5 or 10 or 20");
        assert_eq!(charges.say(Lang::ZhHant), "5 或 10 或 20");
    }

    #[test]
    fn a_message_is_said_in_each_language() {
        let said = Said::new(
            Msg::Seated,
            [
                Part::said(Msg::Card, [Part::from("S01"), Part::from("3")]),
                Part::count(2, Msg::OnePlayer, Msg::Players),
                Part::List(vec![Part::from("A"), Part::from("C")], Msg::And),
            ],
        );
        assert_eq!(
            said.to_string(),
            "session S01 table 3: 2 players seated (A and C); a table seats 3 or 4 players"
        );
        assert_eq!(
            said.say(Lang::ZhHant),
            "場次 S01 第 3 枱：2 名選手入座（A 和 C）；每枱應有 3 或 4 名選手"
        );
        assert_eq!(
            Part::count(1, Msg::OneTile, Msg::Tiles).to_string(),
            "1 tile"
        );
    }

    /// A later stage's card of a table past its seating, in each
    /// language, of two tables and of one.
    #[test]
    fn a_table_past_the_seating_is_said_in_each_language() {
        let card = Part::said(
            Msg::StagedCard,
            [Part::Stage("final".into()), "S01".into(), "3".into()],
        );
        let off = |said: Said| Said::new(Msg::OfCard, [card.clone(), Part::Said(said)]);
        let two = off(Said::new(
            Msg::TableOffSeating,
            [
                Part::Stage("final".into()),
                Part::text(2),
                Part::text(8),
                Part::Stage("prelim".into()),
            ],
        ));
        assert_eq!(
            two.to_string(),
            "final session S01 table 3: the final has tables 1 to 2 (the seating of the 8 who go on from the prelim); correct the card's table"
        );
        assert_eq!(
            two.say(Lang::ZhHant),
            "決賽場次 S01 第 3 枱：決賽只有第 1 至 2 枱（從初賽晉級的 8 名選手的座位安排）；請更正計分卡的枱號"
        );
        let one = off(Said::new(
            Msg::TableOffSeatingOne,
            [
                Part::Stage("final".into()),
                Part::text(4),
                Part::Stage("semi".into()),
            ],
        ));
        assert_eq!(
            one.to_string(),
            "final session S01 table 3: the final has one table, table 1 (the seating of the 4 who go on from the semi); correct the card's table"
        );
        assert_eq!(
            one.say(Lang::ZhHant),
            "決賽場次 S01 第 3 枱：決賽只有第 1 枱（從準決賽晉級的 4 名選手的座位安排）；請更正計分卡的枱號"
        );
    }

    #[test]
    fn a_stage_is_said_as_written_in_english_and_in_words_elsewhere() {
        let card = |stage: &str| {
            Said::new(
                Msg::StagedCard,
                [
                    Part::Stage(stage.into()),
                    Part::from("S01"),
                    Part::from("2"),
                ],
            )
        };
        assert_eq!(card("semi").to_string(), "semi session S01 table 2");
        // (no space between Chinese words: lang::fill_with)
        assert_eq!(card("semi").say(Lang::ZhHant), "準決賽場次 S01 第 2 枱");
        // a stage of the event's own naming is said as written
        assert_eq!(
            card("playoff").say(Lang::ZhHant),
            "playoff 場次 S01 第 2 枱"
        );
    }
}
