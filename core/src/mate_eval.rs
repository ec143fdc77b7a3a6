//! A static (search-free) estimate of whether the side to move can mate within 3 plies, after
//! Tanaka, Fujii, Tokuda, Iida, Inui and Kotani, "将棋における三手詰めの静的評価関数"
//! ("Evaluate Function of Mate in 3 for Shogi", IPSJ national convention, 3P-5).
//!
//! The score is linear, `F = constant + Σ wᵢ·fᵢ`, with eleven features of the defender king's
//! surroundings and the attacker's hand ([`Mate3Features`]). It was fitted by least squares to
//! 100 for mate positions taken from games, 90 for 3-ply tsume problems and 0 for positions
//! without a 3-ply mate. The paper reads `F ≥ 60` as "almost always mate" and `F ≤ 20` as
//! "almost always no mate"; in between it says nothing. [`Mate3Weights::PAPER`] is the paper's
//! Table 1; [`Mate3Weights::FITTED`] is our own fit (`soppo-tools fit-mate3`, see
//! `docs/RESULTS.md`), which [`mate3_score`] uses.
//!
//! Terms (paper §1, §3.1), with the attacker = the side to move, the defender = the other side:
//! - *control* (利き) of a colour on a square = the number of that colour's pieces that attack
//!   the square directly (a piece behind another piece on the same line does not count: no
//!   x-ray). Pins are ignored: a pinned piece still controls. A square may hold a piece of
//!   either colour; control of a square holding one's own piece is protection.
//! - *neighbours* (八近傍) = the up to 8 on-board squares next to the defender king;
//!   *3×3* = the neighbours plus the king's own square; *5×5* = the on-board squares within
//!   two files and two ranks of the king (the king's square included).
//! - The defender king's own control is never counted (the paper says so for feature 2;
//!   we apply it to feature 4 as well, where counting it would make every neighbour
//!   "defended" and leave only the outer ring of the 5×5 as possible own-control squares).
//! - The defender king is transparent to the attacker's sliders: a square behind the king on
//!   an attacker's line is controlled, since the king cannot escape there. In a legal
//!   position with the attacker to move the defender is not in check, so this changes nothing
//!   except for malformed inputs; it makes the escape count right even then.
//!
//! Where the paper is ambiguous we chose, and say so on the feature: features 1 and 2 count
//! attacking *pieces* summed over squares (利き数 is "number of controls", e.g. a square
//! attacked by a gold and a rook counts 2), features 3 and 4 count *squares*.
//!
//! The paper's prose (§3.2, OCR) says more attacker control and more own-control squares make
//! a mate *less* likely, while its Table 1 gives both positive weights. We follow Table 1; our
//! own fit gives them positive weights as well.

use crate::attacks::{
    bishop_attacks, bishop_pseudo_attacks, build_boxes, gold_attacks, king_attacks, knight_attacks, lance_attacks,
    lance_pseudo_attacks, near_box, rook_attacks, rook_pseudo_attacks, silver_attacks,
};
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, PieceKind, Square};

/// The hand kinds in the order of the paper's Table 1 (and of [`Mate3Features::hand`]).
pub const HAND_ORDER: [PieceKind; 7] = PieceKind::HAND_BY_VALUE;

/// The features of one position, all counted for the side to move as attacker against the
/// other side's king.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mate3Features {
    /// (1) Attacker control on the king's neighbours: Σ over the (up to 8) neighbours of the
    /// number of attacker pieces attacking that square. The attacker's king counts like any
    /// piece. Range 0..=80 (10 direct attackers per square at most).
    pub attacker_control: u8,
    /// (2) Defender control on the 3×3 around its king, the king's own control excluded:
    /// Σ over the neighbours and the king's square of the number of defender pieces other than
    /// the king attacking that square. Range 0..=90.
    pub defender_control: u8,
    /// (3) Escape squares (退路): neighbours the king could step to without being in check,
    /// i.e. not holding a defender piece and not controlled by the attacker (the king removed
    /// from the board for the attacker's sliders). A neighbour holding an unprotected attacker
    /// piece is an escape (the king captures it). Equals 8 minus the off-board, own-occupied and
    /// attacked neighbours, as the paper defines it. Range 0..=8.
    pub escapes: u8,
    /// (4) Own-control squares (自勢力) in the 5×5 around the king: squares controlled by the
    /// attacker and by no defender piece other than the king. Range 0..=25 (24 in practice:
    /// the king's square is never attacked with the attacker to move).
    pub own_control: u8,
    /// (5) The attacker's hand, by kind in [`HAND_ORDER`]: rook, bishop, gold, silver,
    /// knight, lance, pawn.
    pub hand: [u8; 7],
}

impl Mate3Features {
    /// The number of features (the constant term not included).
    pub const COUNT: usize = 11;

    /// The features as numbers, in the order of [`Mate3Weights::to_array`] without its
    /// leading constant: attacker control, defender control, escapes, own control, then the
    /// hand in [`HAND_ORDER`].
    pub fn to_array(&self) -> [f32; Mate3Features::COUNT] {
        let h = self.hand;
        [
            f32::from(self.attacker_control),
            f32::from(self.defender_control),
            f32::from(self.escapes),
            f32::from(self.own_control),
            f32::from(h[0]),
            f32::from(h[1]),
            f32::from(h[2]),
            f32::from(h[3]),
            f32::from(h[4]),
            f32::from(h[5]),
            f32::from(h[6]),
        ]
    }
}

/// The weights of the linear score `F = constant + Σ wᵢ·fᵢ`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Mate3Weights {
    pub constant: f32,
    pub attacker_control: f32,
    pub defender_control: f32,
    pub escapes: f32,
    pub own_control: f32,
    /// By kind in [`HAND_ORDER`]: rook, bishop, gold, silver, knight, lance, pawn.
    pub hand: [f32; 7],
}

impl Mate3Weights {
    /// The number of weights, the constant included.
    pub const COUNT: usize = Mate3Features::COUNT + 1;

    /// Table 1 of the paper (fitted there on 1112 mate and 1264 no-mate positions from
    /// professional games plus 380 three-move tsume problems, Black always attacking).
    pub const PAPER: Mate3Weights = Mate3Weights {
        constant: 39.2,
        attacker_control: 9.2,
        defender_control: -5.3,
        escapes: -4.8,
        own_control: 1.3,
        hand: [10.5, 2.9, 7.8, 4.5, 4.0, 5.1, -1.0],
    };

    /// Our least-squares fit on the shared data: `soppo-tools fit-mate3` (seed 1, no-mate
    /// ratio 1264/1492), final fit on all 8303 positions (1905 game mates, 1022 tsume
    /// problems, 1568 mates in 1, 3808 sampled no-mate game positions). Mean 10-fold held-out
    /// figures: mate precision 96.4 % / recall 84.4 % at F ≥ 60, no-mate precision 99.3 % /
    /// recall 68.6 % at F ≤ 20 (see `docs/RESULTS.md`). Compared with Table 1 it leans on
    /// the escape squares rather than on attacker control and hand pieces other than gold.
    pub const FITTED: Mate3Weights = Mate3Weights {
        constant: 68.70,
        attacker_control: 4.84,
        defender_control: -2.98,
        escapes: -10.57,
        own_control: 1.15,
        hand: [2.81, 0.67, 8.79, 0.66, 1.83, -0.24, -0.92],
    };

    /// Score at or above which the paper reads "almost always mate".
    pub const MATE_THRESHOLD: f32 = 60.0;
    /// Score at or below which the paper reads "almost always no mate".
    pub const NO_MATE_THRESHOLD: f32 = 20.0;

    /// The weights as numbers: the constant first, then the features' weights in the order
    /// of [`Mate3Features::to_array`].
    pub fn to_array(&self) -> [f32; Mate3Weights::COUNT] {
        let h = self.hand;
        [
            self.constant,
            self.attacker_control,
            self.defender_control,
            self.escapes,
            self.own_control,
            h[0],
            h[1],
            h[2],
            h[3],
            h[4],
            h[5],
            h[6],
        ]
    }

    /// The inverse of [`Mate3Weights::to_array`].
    pub fn from_array(w: [f32; Mate3Weights::COUNT]) -> Mate3Weights {
        Mate3Weights {
            constant: w[0],
            attacker_control: w[1],
            defender_control: w[2],
            escapes: w[3],
            own_control: w[4],
            hand: [w[5], w[6], w[7], w[8], w[9], w[10], w[11]],
        }
    }

    /// `F(x)`: the constant plus the weighted features.
    #[inline]
    pub fn score(&self, f: &Mate3Features) -> f32 {
        let mut s = self.constant
            + self.attacker_control * f32::from(f.attacker_control)
            + self.defender_control * f32::from(f.defender_control)
            + self.escapes * f32::from(f.escapes)
            + self.own_control * f32::from(f.own_control);
        for (w, &n) in self.hand.iter().zip(&f.hand) {
            s += w * f32::from(n);
        }
        s
    }
}

/// [`Mate3Weights::FITTED`]'s score of `pos`, or 0 (no mate) when the defender has no king.
#[inline]
pub fn mate3_score(pos: &Position) -> f32 {
    Mate3Features::extract(pos).map_or(0.0, |f| Mate3Weights::FITTED.score(&f))
}

/// Squares within three files and ranks: where a one-step piece must stand to attack the 5×5
/// around the centre.
static BOX_3: [Bitboard; 81] = build_boxes(3, 3);
/// Squares within three files and four ranks: where a knight of either colour must stand to
/// attack the 5×5 around the centre (a knight jumps one file and two ranks).
static BOX_3_4: [Bitboard; 81] = build_boxes(3, 4);

/// Per-square attacker counts over a region, kept bit-sliced: bit `i` of a square's count is
/// in `bits[i]`. Adding an attack set is a ripple-carry add done on all 81 squares at once, so
/// counting costs a few word operations per piece instead of a loop over squares. Four bits
/// suffice: at most 10 pieces of one colour attack a square directly (8 neighbours, 2 knights).
#[derive(Copy, Clone, Default)]
struct Counts {
    bits: [Bitboard; 4],
}

impl Counts {
    #[inline(always)]
    fn add(&mut self, set: Bitboard) {
        let mut carry = set;
        for b in &mut self.bits {
            let next = *b & carry;
            *b ^= carry;
            carry = next;
        }
    }

    /// The squares with a nonzero count.
    #[inline(always)]
    fn any(&self) -> Bitboard {
        self.bits[0] | self.bits[1] | self.bits[2] | self.bits[3]
    }

    /// The sum of the counts over `region`.
    #[inline(always)]
    fn sum_in(&self, region: Bitboard) -> u32 {
        (self.bits[0] & region).count()
            + 2 * (self.bits[1] & region).count()
            + 4 * (self.bits[2] & region).count()
            + 8 * (self.bits[3] & region).count()
    }
}

/// How many pieces of colour `c` attack each square of `region` (the 5×5 around `center`),
/// sliders traced under `occ`. `with_king`: whether `c`'s king counts.
#[inline(always)]
fn counts(pos: &Position, c: Color, center: Square, region: Bitboard, occ: Bitboard, with_king: bool) -> Counts {
    let mut n = Counts::default();
    // Every pawn attacks exactly one square, so all pawns together add one layer.
    let pawns = pos.pieces_of(c, PieceKind::Pawn);
    n.add(
        match c {
            Color::Black => pawns.shift_up(),
            Color::White => pawns.shift_down(),
        } & region,
    );
    let near = BOX_3[center.index()];
    for s in pos.pieces_of(c, PieceKind::Knight) & BOX_3_4[center.index()] {
        n.add(knight_attacks(c, s) & region);
    }
    for s in pos.pieces_of(c, PieceKind::Silver) & near {
        n.add(silver_attacks(c, s) & region);
    }
    for s in pos.golds(c) & near {
        n.add(gold_attacks(c, s) & region);
    }
    if with_king {
        for s in pos.pieces_of(c, PieceKind::King) & near {
            n.add(king_attacks(s) & region);
        }
    }
    // Sliders anywhere on the board; the pseudo-attack test skips those whose lines miss the
    // region without tracing rays. Horses and dragons add their one-step moves to the ray
    // (so a square both reach is counted once, as one piece).
    for s in pos.pieces_of(c, PieceKind::Lance) {
        if (lance_pseudo_attacks(c, s) & region).is_nonempty() {
            n.add(lance_attacks(c, s, occ) & region);
        }
    }
    let horses = pos.pieces_of(c, PieceKind::Horse);
    for s in pos.bishops_horses(c) {
        let step = if horses.contains(s) {
            king_attacks(s)
        } else {
            Bitboard::EMPTY
        };
        if ((bishop_pseudo_attacks(s) | step) & region).is_nonempty() {
            n.add((bishop_attacks(s, occ) | step) & region);
        }
    }
    let dragons = pos.pieces_of(c, PieceKind::Dragon);
    for s in pos.rooks_dragons(c) {
        let step = if dragons.contains(s) {
            king_attacks(s)
        } else {
            Bitboard::EMPTY
        };
        if ((rook_pseudo_attacks(s) | step) & region).is_nonempty() {
            n.add((rook_attacks(s, occ) | step) & region);
        }
    }
    n
}

impl Mate3Features {
    /// The features of `pos` with the side to move attacking; `None` when the other side has
    /// no king. Allocation-free; about as costly as two `attacks_around` calls.
    pub fn extract(pos: &Position) -> Option<Mate3Features> {
        let attacker = pos.side_to_move();
        let defender = !attacker;
        let ksq = pos.king_square(defender)?;
        let occ = pos.occupied();
        let box5 = near_box(ksq);
        let neighbours = king_attacks(ksq);
        let att = counts(pos, attacker, ksq, box5, occ.without(ksq), true);
        let def = counts(pos, defender, ksq, box5, occ, false);
        let attacked = att.any();
        let escapes = neighbours.and_not(pos.pieces(defender)).and_not(attacked);
        let hand = pos.hand(attacker);
        Some(Mate3Features {
            attacker_control: att.sum_in(neighbours) as u8,
            defender_control: def.sum_in(neighbours.with(ksq)) as u8,
            escapes: escapes.count() as u8,
            own_control: (attacked & box5).and_not(def.any()).count() as u8,
            hand: HAND_ORDER.map(|k| hand.count(k) as u8),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap()
    }

    fn features(sfen: &str) -> Mate3Features {
        Mate3Features::extract(&pos(sfen)).unwrap()
    }

    /// The same features computed square by square with `attackers_to` (the reference the
    /// bit-sliced counting must agree with).
    fn naive(p: &Position) -> Option<Mate3Features> {
        let a = p.side_to_move();
        let d = !a;
        let k = p.king_square(d)?;
        let occ = p.occupied();
        let mut f = Mate3Features::default();
        for s in Square::all() {
            let (df, dr) = (
                s.file().index().abs_diff(k.file().index()),
                s.rank().index().abs_diff(k.rank().index()),
            );
            if df > 2 || dr > 2 {
                continue;
            }
            let att = p.attackers_to(a, s, occ.without(k)).count();
            let def = p.attackers_to(d, s, occ).without(k).count();
            let neighbour = df <= 1 && dr <= 1 && s != k;
            if neighbour {
                f.attacker_control += att as u8;
                if att == 0 && p.piece_on(s).is_none_or(|pc| pc.color() == a) {
                    f.escapes += 1;
                }
            }
            if df <= 1 && dr <= 1 {
                f.defender_control += def as u8;
            }
            if att > 0 && def == 0 {
                f.own_control += 1;
            }
        }
        f.hand = HAND_ORDER.map(|kind| p.hand(a).count(kind) as u8);
        Some(f)
    }

    #[test]
    fn lone_king_in_the_corner() {
        // White king on 1a, Black king far away, a gold in Black's hand. Neighbours on the
        // board: 2a, 1b, 2b; all three are escapes, nothing is controlled.
        let f = features("8k/9/9/9/9/9/9/9/K8 b G 1");
        assert_eq!(
            f,
            Mate3Features {
                attacker_control: 0,
                defender_control: 0,
                escapes: 3,
                own_control: 0,
                hand: [0, 0, 1, 0, 0, 0, 0],
            }
        );
    }

    #[test]
    fn corner_king_with_pawn_gold_and_defending_silver() {
        // White: king 1a, silver 2a (covers 1b, 2b, 3b). Black: gold 2c (covers 1b, 2b, 3b,
        // 1c, 3c, 2d), pawn 1c (covers 1b), gold and two pawns in hand.
        // (1) 1b: pawn + gold = 2, 2b: gold = 1, 2a: 0 → 3.
        // (2) 1a: 0, 2a: 0, 1b: silver, 2b: silver → 2 (the king's own control not counted).
        // (3) 2a holds a silver, 1b and 2b are attacked → 0 escapes.
        // (4) attacker controls 1b 2b 3b 1c 3c in the 5×5 (2d is outside), the silver
        //     1b 2b 3b → own control 1c, 3c = 2.
        let f = features("7sk/9/7GP/9/9/9/9/9/K8 b G2P 1");
        assert_eq!(
            f,
            Mate3Features {
                attacker_control: 3,
                defender_control: 2,
                escapes: 0,
                own_control: 2,
                hand: [0, 0, 1, 0, 0, 0, 2],
            }
        );
    }

    #[test]
    fn sliders_without_xray() {
        // White king 5e in the open. A Black rook on 9d covers rank d, among it the neighbours
        // 6d, 5d, 4d → attacker control 3, escapes 8 − 3 = 5. A Black lance on 4i stands behind
        // a White pawn on 4g: it attacks 4h and the pawn, not the neighbour 4f (no x-ray).
        // Own control in the 5×5 (files 7–3, ranks c–g): 7d..3d by the rook and 4g by the
        // lance, none defended (the king does not count) → 6.
        let f = features("9/9/9/R8/4k4/9/5p3/9/K4L3 b - 1");
        assert_eq!(f.attacker_control, 3);
        assert_eq!(f.escapes, 5);
        assert_eq!(f.own_control, 6);
        assert_eq!(f.defender_control, 0);
    }

    #[test]
    fn no_defender_king_is_none() {
        // Black to move attacks White, which has no king here.
        assert!(Mate3Features::extract(&pos("9/9/9/9/9/9/9/9/4K4 b - 1")).is_none());
        assert!((mate3_score(&pos("9/9/9/9/9/9/9/9/4K4 b - 1"))).abs() < f32::EPSILON);
        // The tsume layout: only the defender has a king.
        assert!(Mate3Features::extract(&pos("4k4/9/9/9/9/9/9/9/9 b 2R 1")).is_some());
    }

    #[test]
    fn mirrored_position_has_the_same_features() {
        for sfen in [
            "7sk/9/7GP/9/9/9/9/9/K8 b G2P 1",
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        ] {
            let turned = pos(sfen).turned();
            assert_eq!(
                features(sfen),
                Mate3Features::extract(&turned).unwrap(),
                "{sfen} vs {}",
                turned.to_sfen()
            );
        }
    }

    #[test]
    fn paper_weights_score() {
        let f = features("7sk/9/7GP/9/9/9/9/9/K8 b G2P 1");
        // 39.2 + 9.2·3 − 5.3·2 − 4.8·0 + 1.3·2 + 7.8·1 − 1.0·2
        let expected = 39.2 + 27.6 - 10.6 + 2.6 + 7.8 - 2.0;
        assert!((Mate3Weights::PAPER.score(&f) - expected).abs() < 1e-3);
        assert_eq!(
            Mate3Weights::from_array(Mate3Weights::PAPER.to_array()),
            Mate3Weights::PAPER
        );
    }

    /// The starts of the core's and the property tests' positions: the even start, a
    /// handicap, tsume layouts with one king, the 593-move position, full hands.
    const STARTS: [&str; 8] = [
        crate::STARTPOS_SFEN,
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "4k4/9/9/9/9/9/9/9/9 b 2R2B4G4S4N4L18P 1",
        "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
        "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S2N2L9Prb2g2s2n2l9p 1",
        "6snk/6gpl/6p2/9/9/9/9/9/K8 b 2R2B3G3S3N3L16P 1",
        "2BR4K/1GBG2+P+P+P/3GN4/9/9/9/9/9/6k2 b RG4S3N4L15P 1",
        "4k4/9/2N6/9/B3S4/9/4R4/9/4K4 b G2g2s2n3l17p 1",
    ];

    #[test]
    fn core_test_positions_do_not_panic() {
        for sfen in STARTS {
            let p = pos(sfen);
            assert_eq!(Mate3Features::extract(&p), naive(&p), "{sfen}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Along random legal games (checks preferred, so kings get surrounded), `extract`
        /// never panics, agrees with the square-by-square reference and stays in range.
        #[test]
        fn extract_matches_naive_along_random_games(
            start in 0..STARTS.len(),
            choices in proptest::collection::vec(any::<u16>(), 1..120),
        ) {
            let mut p = pos(STARTS[start]);
            for c in choices {
                let f = Mate3Features::extract(&p);
                prop_assert_eq!(f, naive(&p), "{}", p.to_sfen());
                if let Some(f) = f {
                    prop_assert!(f.escapes <= 8 && f.own_control <= 25);
                    prop_assert!(Mate3Weights::FITTED.score(&f).is_finite());
                }
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let checks: Vec<_> = moves.iter().copied().filter(|&m| p.gives_check(m)).collect();
                let m = if c % 4 == 0 && !checks.is_empty() {
                    checks[usize::from(c / 4) % checks.len()]
                } else {
                    moves[usize::from(c) % moves.len()]
                };
                p.do_move(m);
            }
        }
    }
}
