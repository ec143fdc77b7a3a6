//! The search's numeric constants (pruning margins, reduction formula, windows), gathered in
//! one place so that a tuning build can change them without recompiling.
//!
//! A normal build reads [`DEFAULT`], a constant the compiler folds into the code. A build
//! with the `tune` feature declares one hidden-in-spirit USI option per constant
//! (`Tune_<name>`, see [`SPECS`]) and reads the values the options hold, so that a tuner
//! (`tools/scripts/spsa.py`) can play matches between two settings of one binary.

/// Every tunable constant of the search. Units are those of the code that reads them; a few
/// are scaled to stay integers (noted per field).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tunables {
    /// Reverse futility: margin per ply of depth.
    pub rfp_margin: i32,
    /// Reverse futility: margin taken off when the evaluation is improving.
    pub rfp_improving: i32,
    /// Null move: one more ply of reduction per this much of evaluation above beta (at most 3).
    pub nmp_eval_div: i32,
    /// Move-count pruning: quiet moves kept at depth d are `base + mult·d²/10` (halved when
    /// not improving).
    pub lmp_base: i32,
    pub lmp_mult: i32,
    /// Futility pruning of quiet moves: `eval + base + mult·lmr_depth <= alpha`.
    pub fut_base: i32,
    pub fut_mult: i32,
    /// History pruning: quiet moves whose ordering score is below `-this·depth`.
    pub hist_prune: i32,
    /// SEE pruning: quiet moves below `-this·lmr_depth²`, tactical ones below `-this·depth`.
    pub see_quiet: i32,
    pub see_tactical: i32,
    /// Late-move reductions `base/100 + ln(depth)·ln(move)·100/div`.
    pub lmr_base: i32,
    pub lmr_div: i32,
    /// One ply less of reduction per this much of a quiet move's history score.
    pub lmr_hist_div: i32,
    /// Singular extension: the other moves must stay `mult·depth/10` below the table move.
    pub singular_mult: i32,
    /// First half-width of the root's aspiration window.
    pub aspiration: i32,
    /// Quiescence delta pruning: a capture is skipped when winning its victim outright still
    /// leaves the score this far below alpha.
    pub qs_delta: i32,
}

/// The values a normal build plays with.
pub const DEFAULT: Tunables = Tunables {
    rfp_margin: 150,
    rfp_improving: 60,
    nmp_eval_div: 200,
    lmp_base: 10,
    lmp_mult: 30,
    fut_base: 200,
    fut_mult: 150,
    hist_prune: 3000,
    see_quiet: 20,
    see_tactical: 160,
    lmr_base: 60,
    lmr_div: 220,
    lmr_hist_div: 8000,
    singular_mult: 20,
    aspiration: 24,
    qs_delta: 200,
};

/// The constants a search plays with: the options' values (`from_options`) in a `tune` build,
/// else [`DEFAULT`], a constant, so that the normal build's code is what it was before the
/// constants were named.
#[inline(always)]
pub fn active(from_options: &Tunables) -> &Tunables {
    #[cfg(feature = "tune")]
    {
        from_options
    }
    #[cfg(not(feature = "tune"))]
    {
        let _ = from_options;
        &DEFAULT
    }
}

/// One tunable as the tuning build declares it: name, and the range its option accepts.
pub struct Spec {
    pub name: &'static str,
    pub min: i32,
    pub max: i32,
    pub get: fn(&Tunables) -> i32,
    pub set: fn(&mut Tunables, i32),
}

macro_rules! specs {
    ($($field:ident: $min:expr, $max:expr;)*) => {
        /// Every tunable with its range (the tuning build's `Tune_<name>` options).
        pub const SPECS: &[Spec] = &[$(Spec {
            name: stringify!($field),
            min: $min,
            max: $max,
            get: |t| t.$field,
            set: |t, v| t.$field = v,
        }),*];
    };
}

specs! {
    rfp_margin: 40, 400;
    rfp_improving: 0, 200;
    nmp_eval_div: 40, 800;
    lmp_base: 1, 40;
    lmp_mult: 5, 100;
    fut_base: 0, 600;
    fut_mult: 20, 400;
    hist_prune: 200, 20_000;
    see_quiet: 0, 100;
    see_tactical: 0, 500;
    lmr_base: -50, 200;
    lmr_div: 100, 500;
    lmr_hist_div: 1000, 50_000;
    singular_mult: 2, 80;
    aspiration: 4, 200;
    qs_delta: 0, 800;
}

/// The late-move reduction table for `t`: by depth, then by move number.
pub fn reduction_table(t: &Tunables) -> [[u8; 64]; 64] {
    let mut table = [[0u8; 64]; 64];
    let base = f64::from(t.lmr_base) / 100.0;
    let div = f64::from(t.lmr_div) / 100.0;
    for (d, row) in table.iter_mut().enumerate().skip(1) {
        for (m, r) in row.iter_mut().enumerate().skip(1) {
            // Late-move reduction grows with the log of both depth and move number.
            let v = base + f64::from(d as u8).ln() * f64::from(m as u8).ln() / div;
            *r = v.max(0.0) as u8;
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_lies_in_its_range_and_every_field_has_a_spec() {
        let mut t = DEFAULT;
        for s in SPECS {
            let v = (s.get)(&DEFAULT);
            assert!(
                (s.min..=s.max).contains(&v),
                "{} = {v} outside {}..={}",
                s.name,
                s.min,
                s.max
            );
            (s.set)(&mut t, v + 1);
        }
        // Each spec moved its own field: no field was left out or set twice.
        for s in SPECS {
            assert_eq!((s.get)(&t), (s.get)(&DEFAULT) + 1, "{}", s.name);
        }
        let fields = format!("{DEFAULT:?}").matches(':').count();
        assert_eq!(fields, SPECS.len());
    }

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        for t in [
            DEFAULT,
            Tunables {
                lmr_base: 150,
                lmr_div: 100,
                ..DEFAULT
            },
        ] {
            let table = reduction_table(&t);
            // ln 1 = 0: the first move, or depth 1, gets the base alone.
            let base = (f64::from(t.lmr_base) / 100.0).max(0.0) as u8;
            assert_eq!(table[1][40], base);
            assert_eq!(table[40][1], base);
            for (shallower, deeper) in table[1..].iter().zip(&table[2..]) {
                assert!(shallower[1..].iter().zip(&deeper[1..]).all(|(s, d)| d >= s));
                assert!(deeper[1..].windows(2).all(|w| w[1] >= w[0]));
            }
            assert!(table[63][63] > table[8][8]);
        }
    }
}
