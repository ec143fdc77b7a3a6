//! The input sets of the nets Soppo reads, as YaneuraOu defines them (its
//! `eval/nnue/features/`; the facts in `../shared/research/yaneuraou-nets.md`).
//!
//! - **K+P** (1,710 inputs a perspective): every piece's number ([`bona_piece`]), the kings'
//!   squares included. A move changes two or three inputs and never all of them.
//! - **HalfKP(Friend)** (81 × 1,548 = 125,388): every non-king piece's number paired with the
//!   perspective's own king's square, `1548 × king + piece`. A move of that king changes every
//!   input of its perspective: the accumulator is refreshed; the enemy king is no input.
//!
//! Both count a piece that is nowhere (handicaps, tsume problems) as number 0, once per such
//! piece (38 non-king pieces in a set): so do the nets' trainers. A missing king is input 0
//! too in YaneuraOu's K+P (its number, 0, less 1548 and plus 1548 again in unsigned
//! arithmetic), and Soppo does the same. In HalfKP a perspective without its own king has no
//! defined inputs in YaneuraOu (the king's square falls out of range); Soppo evaluates it from
//! the biases alone. Such positions are tsume problems, which `go mate` never evaluates.

use super::bona_piece::{self, FE_END, FE_END2, ZERO};
use soppo_core::{Color, PieceKind, Position};

/// An input set.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Features {
    /// K+P: YaneuraOu's `FeatureSet<K, P>`.
    KP,
    /// HalfKP(Friend): YaneuraOu's `FeatureSet<HalfKP<Side::kFriend>>`.
    HalfKP,
}

/// Non-king pieces in a full set.
pub const PIECES: usize = 38;

/// The most inputs active at once in one perspective.
pub const MAX_ACTIVE: usize = PIECES + 2;

impl Features {
    /// Every input set Soppo reads.
    pub const ALL: [Features; 2] = [Features::KP, Features::HalfKP];

    /// Inputs per perspective.
    pub const fn inputs(self) -> usize {
        match self {
            Features::KP => FE_END2 as usize,
            Features::HalfKP => 81 * FE_END as usize,
        }
    }

    /// The name YaneuraOu writes in a file's architecture string.
    pub const fn name(self) -> &'static str {
        match self {
            Features::KP => "K+P",
            Features::HalfKP => "HalfKP(Friend)",
        }
    }

    /// The short name Soppo says (`K_P`, `HalfKP`).
    pub const fn short_name(self) -> &'static str {
        match self {
            Features::KP => "K_P",
            Features::HalfKP => "HalfKP",
        }
    }

    /// The input set's hash, as YaneuraOu combines its features' (a fact of the format).
    pub const fn hash(self) -> u32 {
        const K: u32 = 0xD3CE_E169;
        const P: u32 = 0x764C_FB4B;
        const HALF_KP: u32 = 0x5D69_D5B9;
        match self {
            Features::KP => K ^ (P << 1) ^ (P >> 31),
            // `^ 1`: the friend king's variant.
            Features::HalfKP => HALF_KP ^ 1,
        }
    }

    /// Whether a move of a perspective's own king changes all that perspective's inputs.
    #[inline(always)]
    pub const fn refreshes_on_king_move(self) -> bool {
        matches!(self, Features::HalfKP)
    }

    /// The input of piece number `bona` for a perspective whose own king stands on `king`
    /// (as the perspective sees it; unused by K+P). `bona` is a king's number only for K+P.
    #[inline(always)]
    pub const fn input(self, bona: u16, king: u16) -> usize {
        match self {
            Features::KP => bona as usize,
            Features::HalfKP => FE_END as usize * king as usize + bona as usize,
        }
    }

    /// The own king's square as `perspective` sees it, where the input set needs it: `None`
    /// only for HalfKP without that king (no input is then active).
    #[inline]
    pub fn king(self, pos: &Position, perspective: Color) -> Option<u16> {
        match self {
            Features::KP => Some(0),
            Features::HalfKP => pos.king_square(perspective).map(|sq| bona_piece::seen(perspective, sq)),
        }
    }

    /// Calls `f` with every active input of `pos` seen from `perspective` (an input twice
    /// when it is active twice: number 0 once per missing piece).
    pub fn for_each_active(self, pos: &Position, perspective: Color, mut f: impl FnMut(usize)) {
        let Some(king) = self.king(pos, perspective) else {
            return;
        };
        let (mut pieces, mut kings) = (0, 0);
        for sq in pos.occupied() {
            let Some(p) = pos.piece_on(sq) else { continue };
            if p.kind() == PieceKind::King {
                if self == Features::KP {
                    kings += 1;
                    f(self.input(bona_piece::board(perspective, p, sq), king));
                }
                continue;
            }
            pieces += 1;
            f(self.input(bona_piece::board(perspective, p, sq), king));
        }
        for holder in Color::ALL {
            let hand = pos.hand(holder);
            for kind in PieceKind::HAND {
                for nth in 1..=hand.count(kind).min(kind.full_set_count()) {
                    pieces += 1;
                    f(self.input(bona_piece::hand(perspective, holder, kind, nth), king));
                }
            }
        }
        for _ in pieces..PIECES {
            f(self.input(ZERO, king));
        }
        if self == Features::KP {
            for _ in kings..2 {
                f(self.input(ZERO, king));
            }
        }
    }

    /// Every active input of `pos` seen from `perspective`, sorted.
    pub fn active(self, pos: &Position, perspective: Color) -> Vec<usize> {
        let mut out = Vec::with_capacity(MAX_ACTIVE);
        self.for_each_active(pos, perspective, |i| out.push(i));
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The hashes of the local nets' architecture (`0x3F5715FF` for the K+P transformer, as the
    /// files say) and HalfKP's, from the feature hashes.
    #[test]
    fn the_feature_hashes_combine_as_the_files_say() {
        assert_eq!(Features::KP.hash() ^ 512, 0x3F57_15FF);
        assert_eq!(Features::HalfKP.inputs(), 125_388);
        assert_eq!(Features::KP.inputs(), 1710);
    }

    #[test]
    fn the_start_position_has_forty_inputs_in_kp_and_thirty_eight_in_half_kp() {
        let pos = Position::startpos();
        for c in Color::ALL {
            let kp = Features::KP.active(&pos, c);
            assert_eq!(kp.len(), 40);
            assert!(kp.windows(2).all(|w| w[0] < w[1]));
            assert!(kp.iter().all(|&i| i < Features::KP.inputs()));
            let half = Features::HalfKP.active(&pos, c);
            assert_eq!(half.len(), 38);
            assert!(half.iter().all(|&i| i < Features::HalfKP.inputs()));
        }
        // Symmetric start: both perspectives see the same inputs.
        for f in Features::ALL {
            assert_eq!(f.active(&pos, Color::Black), f.active(&pos, Color::White));
        }
    }

    #[test]
    fn a_position_turned_round_with_colours_swapped_looks_the_same() {
        let sfen = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
        let pos = Position::from_sfen(sfen).unwrap();
        let turned = pos.turned();
        for f in Features::ALL {
            assert_eq!(f.active(&pos, Color::White), f.active(&turned, Color::Black));
            assert_eq!(f.active(&pos, Color::Black), f.active(&turned, Color::White));
        }
    }

    #[test]
    fn missing_pieces_count_as_number_zero_and_so_does_a_missing_king_in_kp() {
        // A tsume problem: White's king alone with a gold; the rest of the set in White's hand
        // but for one pawn, which is nowhere.
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b 2GS2r2b2g3s4n4l16p 1").unwrap();
        let kp = Features::KP.active(&pos, Color::Black);
        assert_eq!(kp.iter().filter(|&&i| i == 0).count(), 2, "a pawn and a king: {kp:?}");
        assert_eq!(kp.len(), 40);
        let half = Features::HalfKP.active(&pos, Color::White);
        assert_eq!(half.len(), 38);
        assert!(Features::HalfKP.active(&pos, Color::Black).is_empty());
    }
}
