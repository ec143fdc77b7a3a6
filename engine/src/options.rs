//! The engine's USI options: what `usi` declares and what `setoption` may change.
//!
//! Every option is declared once, in [`TABLE`]: its name, type, range and the field of
//! [`Options`] it sets. The `usi` listing, `setoption` and the settings handed to the search,
//! the mate solver and the time management all read that table and that struct; the defaults
//! are those of the settings types themselves ([`SearchSettings::DEFAULT`],
//! [`TimeSettings::DEFAULT`], [`MateConfig::default`]). The search, the solver and the time
//! management know nothing of options.
//!
//! Names match case-insensitively (GUIs differ in case); `USI_Hash` and `USI_Ponder` are
//! accepted even though GUIs send them whether or not they were declared. A value that does
//! not fit the option's type or range is refused with a sentence saying why, and the option
//! keeps its previous value.

use crate::book::BookSettings;
use crate::eval::Evaluation;
use crate::mate::MateConfig;
use crate::search::tunables;
use crate::search::{SearchSettings, SoppoCut};
use crate::time::TimeSettings;
use soppo_core::declaration::EnteringKingRule;
use soppo_usi::{OptionKind, UsiOption};

/// Every option value, typed, grouped by what reads it.
#[derive(Clone, Debug)]
pub struct Options {
    /// `USI_Hash`: the search's table and the mate solver's, MiB.
    pub hash_mb: u64,
    /// `USI_Ponder` (GUIs send it; pondering follows `go ponder`).
    pub ponder: bool,
    /// `Threads`: for the search and the mate solver alike.
    pub threads: u32,
    /// `DepthLimit`, `NodesLimit`: limits of every `go` (0: none).
    pub depth_limit: u32,
    pub nodes_limit: u64,
    /// What the search reads (its `threads` is set per job from [`Options::threads`]).
    pub search: SearchSettings,
    /// What the time management reads.
    pub time: TimeSettings,
    /// What the mate solver reads (its `hash_mb` and `threads` are set per job).
    pub mate: MateConfig,
    /// `EvalDir`: the folder holding the net `nn.bin` (relative: from the executable's
    /// folder). The controller loads it at `isready` and hands it to the search.
    pub eval_dir: String,
    /// `EvalFile`: a net file's path; when not empty it is loaded instead of `EvalDir`'s.
    pub eval_file: String,
    /// The book options (`USI_OwnBook`, `BookFile`, `BookDir`, `BookMoves` …).
    pub book: BookSettings,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 256,
            ponder: false,
            threads: 1,
            depth_limit: 0,
            nodes_limit: 0,
            search: SearchSettings::DEFAULT,
            time: TimeSettings::DEFAULT,
            mate: MateConfig::default(),
            eval_dir: DEFAULT_EVAL_DIR.to_owned(),
            eval_file: String::new(),
            book: BookSettings::with_default_names(),
        }
    }
}

/// `EvalDir`'s default, as YaneuraOu's.
pub const DEFAULT_EVAL_DIR: &str = "eval";

/// Largest hash size offered, in MiB (the machine, not the protocol, is the limit: see
/// [`crate::memory`]).
pub const MAX_HASH_MB: i64 = 1 << 20;

/// The type and range of an option, and how it reads and writes its field.
pub enum Field {
    Spin {
        min: i64,
        max: i64,
        get: fn(&Options) -> i64,
        set: fn(&mut Options, i64),
    },
    Check {
        get: fn(&Options) -> bool,
        set: fn(&mut Options, bool),
    },
    /// A choice among `names`, read and written by its index.
    Combo {
        names: &'static [&'static str],
        get: fn(&Options) -> usize,
        set: fn(&mut Options, usize),
    },
    /// A file's path, any text (empty: none; `<empty>` as GUIs send it reads as empty).
    Filename {
        get: fn(&Options) -> &str,
        set: fn(&mut Options, String),
    },
    /// Any text (`<empty>` reads as empty).
    Text {
        get: fn(&Options) -> &str,
        set: fn(&mut Options, String),
    },
}

/// One option: its USI name and its [`Field`].
pub struct OptionSpec {
    pub name: &'static str,
    pub field: Field,
}

/// The `EnteringKingRule` choices, in the order of their names.
const RULES: [EnteringKingRule; 5] = [
    EnteringKingRule::None,
    EnteringKingRule::Csa24,
    EnteringKingRule::Csa24Handicap,
    EnteringKingRule::Csa27,
    EnteringKingRule::Csa27Handicap,
];

const SOPPO_CUTS: [SoppoCut; 3] = [SoppoCut::Off, SoppoCut::Static, SoppoCut::Dynamic];

/// The `Evaluation` choices, in the order of their names.
const EVALUATIONS: [Evaluation; 3] = [Evaluation::Auto, Evaluation::Classic, Evaluation::Nnue];

/// The index of `v` in `all` (every value of a combo is listed, so it is found).
fn index_of<T: PartialEq>(all: &[T], v: &T) -> usize {
    all.iter().position(|x| x == v).unwrap_or(0)
}

/// A spin value for a field of a narrower type: the declared range keeps it in bounds.
fn narrow<T: TryFrom<i64> + Bounded>(v: i64) -> T {
    T::try_from(v).unwrap_or(if v < 0 { T::MIN } else { T::MAX })
}

/// The bounds [`narrow`] falls back to.
pub trait Bounded {
    const MIN: Self;
    const MAX: Self;
}

impl Bounded for u32 {
    const MIN: u32 = u32::MIN;
    const MAX: u32 = u32::MAX;
}
impl Bounded for u64 {
    const MIN: u64 = u64::MIN;
    const MAX: u64 = u64::MAX;
}
impl Bounded for i32 {
    const MIN: i32 = i32::MIN;
    const MAX: i32 = i32::MAX;
}

/// A spin option setting one integer field.
macro_rules! spin {
    ($name:literal, $min:expr, $max:expr, $($field:ident).+) => {
        OptionSpec {
            name: $name,
            field: Field::Spin {
                min: $min,
                max: $max,
                get: |o| i64::try_from(o.$($field).+).unwrap_or(i64::MAX),
                set: |o, v| o.$($field).+ = narrow(v),
            },
        }
    };
}

/// A check option setting one boolean field.
macro_rules! check {
    ($name:literal, $($field:ident).+) => {
        OptionSpec {
            name: $name,
            field: Field::Check {
                get: |o| o.$($field).+,
                set: |o, v| o.$($field).+ = v,
            },
        }
    };
}

/// Every option, in the order `usi` lists them.
pub const TABLE: &[OptionSpec] = &[
    spin!("USI_Hash", 1, MAX_HASH_MB, hash_mb),
    check!("USI_Ponder", ponder),
    spin!("Threads", 1, 512, threads),
    spin!("MultiPV", 1, 800, search.multi_pv),
    spin!("NetworkDelay", 0, 10_000, time.network_delay_ms),
    spin!("NetworkDelay2", 0, 10_000, time.network_delay2_ms),
    spin!("MinimumThinkingTime", 0, 100_000, time.minimum_thinking_time_ms),
    spin!("SlowMover", 1, 1000, time.slow_mover_percent),
    spin!("ResignValue", 0, 99_999, search.resign_value),
    OptionSpec {
        name: "EnteringKingRule",
        field: Field::Combo {
            names: &["NoEnteringKing", "CSARule24", "CSARule24H", "CSARule27", "CSARule27H"],
            get: |o| index_of(&RULES, &o.search.entering_king_rule),
            set: |o, i| o.search.entering_king_rule = RULES[i],
        },
    },
    spin!("MaxMovesToDraw", 0, 100_000, search.max_moves_to_draw),
    spin!("DepthLimit", 0, 10_000, depth_limit),
    spin!("NodesLimit", 0, i64::MAX, nodes_limit),
    OptionSpec {
        name: "SoppoCut",
        field: Field::Combo {
            names: &["Off", "Static", "Dynamic"],
            get: |o| index_of(&SOPPO_CUTS, &o.search.soppo_cut),
            set: |o, i| o.search.soppo_cut = SOPPO_CUTS[i],
        },
    },
    spin!("SoppoDistance", 1, 16, search.soppo_distance),
    check!("StaticMateEval", search.static_mate_eval),
    OptionSpec {
        name: "MateInterposition",
        field: Field::Combo {
            // Chains: drops on one square, and loose drops, searched one at a time; PerKind:
            // every drop its own child.
            names: &["Chains", "PerKind"],
            get: |o| usize::from(!o.mate.drop_chains),
            set: |o, i| o.mate.drop_chains = i == 0,
        },
    },
    check!("MateSuperPiece", mate.super_piece),
    OptionSpec {
        name: "Evaluation",
        field: Field::Combo {
            names: &["Auto", "Classic", "NNUE"],
            get: |o| index_of(&EVALUATIONS, &o.search.evaluation),
            set: |o, i| o.search.evaluation = EVALUATIONS[i],
        },
    },
    OptionSpec {
        name: "EvalDir",
        field: Field::Text {
            get: |o| &o.eval_dir,
            set: |o, v| o.eval_dir = v,
        },
    },
    OptionSpec {
        name: "EvalFile",
        field: Field::Filename {
            get: |o| &o.eval_file,
            set: |o, v| o.eval_file = v,
        },
    },
    spin!("FV_SCALE", 1, 128, search.fv_scale),
    check!("USI_OwnBook", book.own_book),
    OptionSpec {
        name: "BookFile",
        // Text, not a combo: YaneuraOu's names (`no_book`, `standard_book.db`,
        // `user_book1.db` …) work, and so does any other file in `BookDir` or a full path.
        field: Field::Text {
            get: |o| &o.book.file,
            set: |o, v| o.book.file = v,
        },
    },
    OptionSpec {
        name: "BookDir",
        field: Field::Text {
            get: |o| &o.book.dir,
            set: |o, v| o.book.dir = v,
        },
    },
    spin!("BookMoves", 0, 10_000, book.moves),
    spin!("BookIgnoreRate", 0, 100, book.ignore_rate),
    spin!("BookEvalDiff", 0, 99_999, book.eval_diff),
    spin!("BookEvalBlackLimit", -99_999, 99_999, book.eval_black_limit),
    spin!("BookEvalWhiteLimit", -99_999, 99_999, book.eval_white_limit),
    spin!("BookDepthLimit", 0, 99_999, book.depth_limit),
    check!("BookOnTheFly", book.on_the_fly),
    check!("ConsiderBookMoveCount", book.consider_count),
    check!("FlippedBook", book.flipped),
    check!("IgnoreBookPly", book.ignore_ply),
    check!("NarrowBook", book.narrow),
    spin!("BookPvMoves", 1, 246, book.pv_moves),
];

/// The options that choose the net: a change makes the controller load again at `isready`.
pub const NET_OPTIONS: [&str; 3] = ["Evaluation", "EvalDir", "EvalFile"];

/// Options of the `tune` build are named this and a [`tunables::SPECS`] name.
const TUNE_PREFIX: &str = "Tune_";

impl OptionSpec {
    /// The `option` line's content, with the default.
    fn declaration(&self, defaults: &Options) -> UsiOption {
        let kind = match &self.field {
            Field::Spin { min, max, get, .. } => OptionKind::Spin {
                default: get(defaults),
                min: *min,
                max: *max,
            },
            Field::Check { get, .. } => OptionKind::Check { default: get(defaults) },
            Field::Combo { names, get, .. } => OptionKind::Combo {
                default: names[get(defaults)].to_owned(),
                vars: names.iter().map(|n| (*n).to_owned()).collect(),
            },
            Field::Filename { get, .. } => OptionKind::Filename {
                default: get(defaults).to_owned(),
            },
            Field::Text { get, .. } => OptionKind::String {
                default: get(defaults).to_owned(),
            },
        };
        UsiOption {
            name: self.name.to_owned(),
            kind,
        }
    }

    /// Applies `value`, or says why it cannot be applied (the options unchanged).
    fn apply(&self, o: &mut Options, value: &str) -> Result<(), String> {
        let name = self.name;
        match &self.field {
            Field::Spin { min, max, set, .. } => {
                let v: i64 = value.parse().map_err(|_| {
                    format!("option {name}: `{value}` is not a whole number ({min}..={max}); value unchanged")
                })?;
                if v < *min || v > *max {
                    return Err(format!("option {name}: {v} is outside {min}..={max}; value unchanged"));
                }
                set(o, v);
            }
            Field::Check { set, .. } => match value.to_ascii_lowercase().as_str() {
                "true" => set(o, true),
                "false" => set(o, false),
                _ => {
                    return Err(format!(
                        "option {name}: `{value}` is not true or false; value unchanged"
                    ));
                }
            },
            Field::Combo { names, set, .. } => {
                let Some(i) = names.iter().position(|n| n.eq_ignore_ascii_case(value)) else {
                    return Err(format!(
                        "option {name}: `{value}` is not one of {}; value unchanged",
                        names.join(", ")
                    ));
                };
                set(o, i);
            }
            Field::Filename { set, .. } | Field::Text { set, .. } => {
                set(o, if value == "<empty>" { "" } else { value }.to_owned());
            }
        }
        Ok(())
    }
}

/// The `tune` build's option for one search constant.
fn tune_spec(t: &'static tunables::Spec) -> UsiOption {
    UsiOption {
        name: format!("{TUNE_PREFIX}{}", t.name),
        kind: OptionKind::Spin {
            default: (t.get)(&tunables::DEFAULT).into(),
            min: t.min.into(),
            max: t.max.into(),
        },
    }
}

impl Options {
    /// The `option` lines of the `usi` answer, with the defaults.
    pub fn declarations() -> Vec<UsiOption> {
        let defaults = Options::default();
        let mut all: Vec<UsiOption> = TABLE.iter().map(|spec| spec.declaration(&defaults)).collect();
        if cfg!(feature = "tune") {
            all.extend(tunables::SPECS.iter().map(tune_spec));
        }
        all
    }

    /// Applies `setoption name <name> value <value>`. On error the options are unchanged and
    /// the message says what was wrong.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value = value.unwrap_or("").trim();
        if let Some(spec) = TABLE.iter().find(|s| s.name.eq_ignore_ascii_case(name)) {
            return spec.apply(self, value);
        }
        let tune = name
            .get(..TUNE_PREFIX.len())
            .filter(|p| cfg!(feature = "tune") && p.eq_ignore_ascii_case(TUNE_PREFIX))
            .and_then(|_| {
                tunables::SPECS
                    .iter()
                    .find(|t| t.name.eq_ignore_ascii_case(&name[TUNE_PREFIX.len()..]))
            });
        let Some(t) = tune else {
            return Err(format!("unknown option `{name}` (ignored)"));
        };
        let v: i64 = value.parse().map_err(|_| {
            format!(
                "option {TUNE_PREFIX}{}: `{value}` is not a whole number ({}..={}); value unchanged",
                t.name, t.min, t.max
            )
        })?;
        if v < t.min.into() || v > t.max.into() {
            return Err(format!(
                "option {TUNE_PREFIX}{}: {v} is outside {}..={}; value unchanged",
                t.name, t.min, t.max
            ));
        }
        (t.set)(&mut self.search.tunables, narrow(v));
        Ok(())
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
        assert_eq!(o.search.entering_king_rule, EnteringKingRule::Csa24);
        assert!(o.set("EnteringKingRule", Some("TryRule")).is_err());
        assert!(o.set("NoSuchOption", Some("1")).is_err());
        assert!(o.set("SoppoCut", Some("Dynamic")).is_ok());
        assert_eq!(o.search.soppo_cut, SoppoCut::Dynamic);
        assert!(o.mate.super_piece);
        assert!(o.set("matesuperpiece", Some("false")).is_ok());
        assert!(!o.mate.super_piece);
        assert!(o.set("MateSuperPiece", Some("maybe")).is_err());
        assert!(!o.mate.super_piece);
        assert!(o.set("MateInterposition", Some("perkind")).is_ok());
        assert!(!o.mate.drop_chains);
        assert!(o.set("NetworkDelay2", Some("300")).is_ok());
        assert_eq!(o.time.network_delay2_ms, 300);
        assert!(o.set("NodesLimit", Some("9223372036854775807")).is_ok());
        assert_eq!(o.nodes_limit, i64::MAX as u64);
        assert_eq!(o.search.evaluation, Evaluation::Auto);
        assert!(o.set("evaluation", Some("nnue")).is_ok());
        assert_eq!(o.search.evaluation, Evaluation::Nnue);
        assert!(o.set("Evaluation", Some("Both")).is_err());
        assert_eq!(o.search.evaluation, Evaluation::Nnue);
        assert!(o.set("EvalFile", Some(" /nets/k p.nnue ")).is_ok());
        assert_eq!(o.eval_file, "/nets/k p.nnue");
        assert_eq!(o.eval_dir, "eval");
        assert!(o.set("evaldir", Some(r"C:\将棋\水匠 5")).is_ok());
        assert_eq!(o.eval_dir, r"C:\将棋\水匠 5");
        assert_eq!(o.search.fv_scale, 16);
        assert!(o.set("FV_SCALE", Some("24")).is_ok());
        assert!(o.set("FV_SCALE", Some("0")).is_err());
        assert_eq!(o.search.fv_scale, 24);
        assert_eq!((o.book.file.as_str(), o.book.dir.as_str()), ("no_book", "book"));
        assert!(o.set("BookFile", Some("user_book1.db")).is_ok());
        assert!(o.book.names_a_book());
        assert!(o.set("BookEvalWhiteLimit", Some("-200")).is_ok());
        assert_eq!(o.book.eval_white_limit, -200);
        assert!(o.set("BookIgnoreRate", Some("101")).is_err());
        assert!(o.set("flippedbook", Some("false")).is_ok());
        assert!(!o.book.flipped);
    }

    /// Every option's declared default is the value the engine starts with, and setting an
    /// option to its declared default (or any other listed choice) reads back the same.
    #[test]
    fn declared_defaults_are_the_values_and_every_choice_reads_back() {
        let defaults = Options::default();
        for spec in TABLE {
            let mut o = Options::default();
            match &spec.field {
                Field::Spin { min, max, get, .. } => {
                    let d = get(&defaults);
                    assert!((*min..=*max).contains(&d), "{}: {d}", spec.name);
                    for v in [*min, *max, d] {
                        o.set(spec.name, Some(&v.to_string())).unwrap();
                        assert_eq!(get(&o), v, "{}", spec.name);
                    }
                }
                Field::Check { get, .. } => {
                    for v in [true, false] {
                        o.set(spec.name, Some(&v.to_string())).unwrap();
                        assert_eq!(get(&o), v, "{}", spec.name);
                    }
                }
                Field::Combo { names, get, .. } => {
                    for (i, n) in names.iter().enumerate() {
                        o.set(spec.name, Some(n)).unwrap();
                        assert_eq!(get(&o), i, "{} {n}", spec.name);
                    }
                }
                Field::Filename { get, .. } | Field::Text { get, .. } => {
                    if matches!(spec.field, Field::Filename { .. }) {
                        assert_eq!(get(&defaults), "", "{}", spec.name);
                    }
                    for (v, read) in [
                        ("dir with spaces/a.nnue", "dir with spaces/a.nnue"),
                        ("<empty>", ""),
                        ("", ""),
                    ] {
                        o.set(spec.name, Some(v)).unwrap();
                        assert_eq!(get(&o), read, "{} {v}", spec.name);
                    }
                }
            }
        }
        let names: Vec<String> = Options::declarations().into_iter().map(|d| d.name).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "{names:?}");
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
            assert_eq!(o.search.tunables.rfp_margin, 151);
            assert!(o.set("Tune_rfp_margin", Some("100000")).is_err());
            assert_eq!(o.search.tunables.rfp_margin, 151);
        } else {
            assert_eq!(declared, 0);
            assert!(set.is_err());
            assert_eq!(o.search.tunables, tunables::DEFAULT);
        }
    }
}
