//! `tilerank profiles`: the built-in rules profiles, one line each, and
//! `profiles show NAME`: a profile as a complete rules file to start from.

use super::Outcome;
use anyhow::Result;
use clap::{Args, Subcommand};
use tilerank::config::RulesFile;
use tilerank::profile::ProfileName;

/// List the rules profiles, or print one as a rules file of your own to start from
#[derive(Args, Debug)]
#[command(
    after_help = "Examples:\n  tilerank profiles\n  tilerank profiles show gwinnett > club.toml     # then edit club.toml: name = \"club\", ...\n  tilerank standings cards/ --rules club.toml\n  tilerank init club-2026 --name \"Club Open\" --rules club.toml\n\nA rules file may also start from a profile and change a few settings:\n  extends = \"gwinnett\"\n  name = \"club\"\n  [medals]\n  names = \"metals\""
)]
pub struct ProfilesArgs {
    #[command(subcommand)]
    pub what: Option<ProfilesCommand>,
}

#[derive(Subcommand, Debug)]
pub enum ProfilesCommand {
    /// Print a profile as a complete rules file: every setting, commented
    Show {
        /// The profile
        #[arg(value_name = "NAME", value_parser = super::parse_profile)]
        name: ProfileName,
    },
}

pub fn run(args: ProfilesArgs) -> Result<Outcome> {
    let mut out = String::new();
    match args.what {
        None => {
            let width = ProfileName::all()
                .map(|p| p.as_str().len())
                .max()
                .unwrap_or(0);
            for p in ProfileName::all() {
                let file = RulesFile::parse(p.file().unwrap_or_default(), p.as_str())?;
                out.push_str(&format!("{:width$}  {}\n", p.as_str(), file.about));
            }
        }
        Some(ProfilesCommand::Show { name }) => {
            let file = RulesFile::parse(name.file().unwrap_or_default(), name.as_str())?;
            out.push_str(&RulesFile::show(&file.rules, &file.name, &file.about));
        }
    }
    super::write_stdout(out.as_bytes())?;
    Ok(Outcome::Done)
}
