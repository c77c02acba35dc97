#![no_main]
//! `tilerank.toml` and rules files: parsed, then turned into rules.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(config) = tilerank::config::Config::parse(text, "tilerank.toml") {
            let _ = config.rules();
        }
        if let Ok(file) = tilerank::config::RulesFile::parse(text, "rules.toml") {
            let _ = tilerank::config::RulesFile::show(&file.rules, &file.name, &file.about);
        }
    }
});
