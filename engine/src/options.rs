//! The engine's USI options: what `usi` declares and what `setoption` may change.
//!
//! Names match case-insensitively (GUIs differ in case); `USI_Hash` and `USI_Ponder` are
//! accepted even though GUIs send them whether or not they were declared. A value that does
//! not fit the option's type or range is refused with a sentence saying why, and the option
//! keeps its previous value.

use crate::search::tunables::{self, Tunables};
use soppo_core::declaration::EnteringKingRule;
use soppo_usi::{OptionKind, UsiOption};

/// How the soppo forward pruning of the search runs (A/B switch for the search issue).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SoppoCut {
    Off,
    Static,
    Dynamic,
}

/// How the mate solver's df-pn treats interposing drops (an A/B switch).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum InterpositionMethod {
    /// Drops on one square, and loose drops, are chained: one searched at a time.
    Chains,
    /// Every drop is its own child, searched and counted side by side.
    PerKind,
}

/// Every option value, typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub hash_mb: u64,
    pub ponder: bool,
    pub threads: u32,
    pub multi_pv: u32,
    pub network_delay_ms: u64,
    pub network_delay2_ms: u64,
    pub minimum_thinking_time_ms: u64,
    pub slow_mover_percent: u64,
    pub resign_value: i32,
    pub entering_king_rule: EnteringKingRule,
    pub max_moves_to_draw: u32,
    pub depth_limit: u32,
    pub nodes_limit: u64,
    pub soppo_cut: SoppoCut,
    pub soppo_distance: u32,
    pub static_mate_eval: bool,
    /// The exact mate search treats the drops on one square as one super piece.
    pub mate_super_piece: bool,
    pub interposition_method: InterpositionMethod,
    /// The search's constants; only a build with the `tune` feature declares options for
    /// them (`Tune_<name>`) and plays with what they hold.
    pub tunables: Tunables,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 256,
            ponder: false,
            threads: 1,
            multi_pv: 1,
            network_delay_ms: 120,
            network_delay2_ms: 1120,
            minimum_thinking_time_ms: 2000,
            slow_mover_percent: 100,
            resign_value: 99_999,
            entering_king_rule: EnteringKingRule::Csa27,
            max_moves_to_draw: 0,
            depth_limit: 0,
            nodes_limit: 0,
            soppo_cut: SoppoCut::Off,
            soppo_distance: 5,
            static_mate_eval: true,
            mate_super_piece: true,
            interposition_method: InterpositionMethod::Chains,
            tunables: tunables::DEFAULT,
        }
    }
}

const RULES: [(&str, EnteringKingRule); 5] = [
    ("NoEnteringKing", EnteringKingRule::None),
    ("CSARule24", EnteringKingRule::Csa24),
    ("CSARule24H", EnteringKingRule::Csa24Handicap),
    ("CSARule27", EnteringKingRule::Csa27),
    ("CSARule27H", EnteringKingRule::Csa27Handicap),
];

const SOPPO: [(&str, SoppoCut); 3] = [
    ("Off", SoppoCut::Off),
    ("Static", SoppoCut::Static),
    ("Dynamic", SoppoCut::Dynamic),
];

const INTERPOSITION: [(&str, InterpositionMethod); 2] = [
    ("Chains", InterpositionMethod::Chains),
    ("PerKind", InterpositionMethod::PerKind),
];

fn combo_name<T: PartialEq + Copy>(table: &[(&'static str, T)], v: T) -> String {
    table
        .iter()
        .find(|(_, x)| *x == v)
        .map_or_else(String::new, |(n, _)| (*n).to_owned())
}

fn spin(name: &str, default: i64, min: i64, max: i64) -> UsiOption {
    UsiOption {
        name: name.to_owned(),
        kind: OptionKind::Spin { default, min, max },
    }
}

fn check(name: &str, default: bool) -> UsiOption {
    UsiOption {
        name: name.to_owned(),
        kind: OptionKind::Check { default },
    }
}

fn combo<T: PartialEq + Copy>(name: &str, table: &[(&'static str, T)], default: T) -> UsiOption {
    UsiOption {
        name: name.to_owned(),
        kind: OptionKind::Combo {
            default: combo_name(table, default),
            vars: table.iter().map(|(n, _)| (*n).to_owned()).collect(),
        },
    }
}

/// Options of the `tune` build are named this and a [`tunables::SPECS`] name.
const TUNE_PREFIX: &str = "Tune_";

/// Largest hash size offered, in MiB (the machine, not the protocol, is the limit).
pub const MAX_HASH_MB: i64 = 1 << 20;

impl Options {
    /// The `option` lines of the `usi` answer, with the defaults.
    pub fn declarations() -> Vec<UsiOption> {
        let d = Options::default();
        let mut all = vec![
            spin("USI_Hash", d.hash_mb as i64, 1, MAX_HASH_MB),
            check("USI_Ponder", d.ponder),
            spin("Threads", i64::from(d.threads), 1, 512),
            spin("MultiPV", i64::from(d.multi_pv), 1, 800),
            spin("NetworkDelay", d.network_delay_ms as i64, 0, 10_000),
            spin("NetworkDelay2", d.network_delay2_ms as i64, 0, 10_000),
            spin("MinimumThinkingTime", d.minimum_thinking_time_ms as i64, 0, 100_000),
            spin("SlowMover", d.slow_mover_percent as i64, 1, 1000),
            spin("ResignValue", i64::from(d.resign_value), 0, 99_999),
            combo("EnteringKingRule", &RULES, d.entering_king_rule),
            spin("MaxMovesToDraw", i64::from(d.max_moves_to_draw), 0, 100_000),
            spin("DepthLimit", i64::from(d.depth_limit), 0, 10_000),
            spin("NodesLimit", d.nodes_limit as i64, 0, i64::MAX),
            combo("SoppoCut", &SOPPO, d.soppo_cut),
            spin("SoppoDistance", i64::from(d.soppo_distance), 1, 16),
            check("StaticMateEval", d.static_mate_eval),
            combo("MateInterposition", &INTERPOSITION, d.interposition_method),
            check("MateSuperPiece", d.mate_super_piece),
        ];
        if cfg!(feature = "tune") {
            for t in tunables::SPECS {
                let default = (t.get)(&d.tunables);
                all.push(spin(
                    &format!("{TUNE_PREFIX}{}", t.name),
                    default.into(),
                    t.min.into(),
                    t.max.into(),
                ));
            }
        }
        all
    }

    /// Applies `setoption name <name> value <value>`. On error the options are unchanged and
    /// the message says what was wrong.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let decl = Options::declarations()
            .into_iter()
            .find(|o| o.name.eq_ignore_ascii_case(name));
        let Some(decl) = decl else {
            return Err(format!("unknown option `{name}` (ignored)"));
        };
        let value = value.unwrap_or("").trim();
        match &decl.kind {
            OptionKind::Spin { min, max, .. } => {
                let v: i64 = value.parse().map_err(|_| {
                    format!(
                        "option {}: `{value}` is not a whole number ({min}..={max}); value unchanged",
                        decl.name
                    )
                })?;
                if v < *min || v > *max {
                    return Err(format!(
                        "option {}: {v} is outside {min}..={max}; value unchanged",
                        decl.name
                    ));
                }
                self.set_spin(&decl.name, v);
            }
            OptionKind::Check { .. } => {
                let v = match value.to_ascii_lowercase().as_str() {
                    "true" => true,
                    "false" => false,
                    _ => {
                        return Err(format!(
                            "option {}: `{value}` is not true or false; value unchanged",
                            decl.name
                        ));
                    }
                };
                self.set_check(&decl.name, v);
            }
            OptionKind::Combo { vars, .. } => {
                let Some(choice) = vars.iter().find(|v| v.eq_ignore_ascii_case(value)) else {
                    return Err(format!(
                        "option {}: `{value}` is not one of {}; value unchanged",
                        decl.name,
                        vars.join(", ")
                    ));
                };
                self.set_combo(&decl.name, choice);
            }
            OptionKind::Button | OptionKind::String { .. } | OptionKind::Filename { .. } => {}
        }
        Ok(())
    }

    fn set_spin(&mut self, name: &str, v: i64) {
        let u = v.max(0) as u64;
        let small = u32::try_from(u).unwrap_or(u32::MAX);
        match name {
            "USI_Hash" => self.hash_mb = u,
            "Threads" => self.threads = small,
            "MultiPV" => self.multi_pv = small,
            "NetworkDelay" => self.network_delay_ms = u,
            "NetworkDelay2" => self.network_delay2_ms = u,
            "MinimumThinkingTime" => self.minimum_thinking_time_ms = u,
            "SlowMover" => self.slow_mover_percent = u,
            "ResignValue" => self.resign_value = i32::try_from(v).unwrap_or(i32::MAX),
            "MaxMovesToDraw" => self.max_moves_to_draw = small,
            "DepthLimit" => self.depth_limit = small,
            "NodesLimit" => self.nodes_limit = u,
            "SoppoDistance" => self.soppo_distance = small,
            _ => {
                if let Some(t) = name
                    .strip_prefix(TUNE_PREFIX)
                    .and_then(|n| tunables::SPECS.iter().find(|t| t.name == n))
                {
                    (t.set)(&mut self.tunables, i32::try_from(v).unwrap_or(0));
                }
            }
        }
    }

    fn set_check(&mut self, name: &str, v: bool) {
        match name {
            "USI_Ponder" => self.ponder = v,
            "StaticMateEval" => self.static_mate_eval = v,
            "MateSuperPiece" => self.mate_super_piece = v,
            _ => {}
        }
    }

    fn set_combo(&mut self, name: &str, choice: &str) {
        let pick = |table: &[(&str, _)]| table.iter().find(|(n, _)| *n == choice).map(|(_, v)| *v);
        match name {
            "EnteringKingRule" => {
                if let Some(v) = RULES.iter().find(|(n, _)| *n == choice).map(|(_, v)| *v) {
                    self.entering_king_rule = v;
                }
            }
            "SoppoCut" => {
                if let Some(v) = pick(&SOPPO) {
                    self.soppo_cut = v;
                }
            }
            "MateInterposition" => {
                if let Some(v) = INTERPOSITION.iter().find(|(n, _)| *n == choice).map(|(_, v)| *v) {
                    self.interposition_method = v;
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_and_refuse() {
        let mut o = Options::default();
        assert!(o.set("usi_hash", Some("1024")).is_ok());
        assert_eq!(o.hash_mb, 1024);
        assert!(o.set("USI_Hash", Some("0")).is_err());
        assert!(o.set("USI_Hash", Some("abc")).is_err());
        assert_eq!(o.hash_mb, 1024);
        assert!(o.set("USI_Ponder", Some("true")).is_ok());
        assert!(o.ponder);
        assert!(o.set("EnteringKingRule", Some("csarule24")).is_ok());
        assert_eq!(o.entering_king_rule, EnteringKingRule::Csa24);
        assert!(o.set("EnteringKingRule", Some("TryRule")).is_err());
        assert!(o.set("NoSuchOption", Some("1")).is_err());
        assert!(o.set("SoppoCut", Some("Dynamic")).is_ok());
        assert_eq!(o.soppo_cut, SoppoCut::Dynamic);
        assert!(o.mate_super_piece);
        assert!(o.set("matesuperpiece", Some("false")).is_ok());
        assert!(!o.mate_super_piece);
        assert!(o.set("MateSuperPiece", Some("maybe")).is_err());
        assert!(!o.mate_super_piece);
    }

    #[test]
    fn tunables_are_options_only_in_a_tune_build() {
        let declared = Options::declarations()
            .iter()
            .filter(|o| o.name.starts_with(TUNE_PREFIX))
            .count();
        let mut o = Options::default();
        let set = o.set("Tune_rfp_margin", Some("151"));
        if cfg!(feature = "tune") {
            assert_eq!(declared, tunables::SPECS.len());
            assert!(set.is_ok());
            assert_eq!(o.tunables.rfp_margin, 151);
            assert!(o.set("Tune_rfp_margin", Some("100000")).is_err());
            assert_eq!(o.tunables.rfp_margin, 151);
        } else {
            assert_eq!(declared, 0);
            assert!(set.is_err());
            assert_eq!(o.tunables, tunables::DEFAULT);
        }
    }
}
