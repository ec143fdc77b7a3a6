//! Entering-king declaration (nyugyoku sengen).
//!
//! Conditions, all on the declarer's turn: its king stands in the enemy camp (the three
//! farthest ranks); it is not in check; at least ten of its other pieces stand in the enemy
//! camp; and its points (rook and bishop, promoted or not, 5; every other piece 1; king not
//! counted) over its hand plus its pieces in the enemy camp reach the rule's threshold.
//! CSA 27-point rule: Black needs 28, White 27. 24-point rule: 31 wins (24–30 would be a draw,
//! which is not a winning declaration). The handicap-aware variants credit White with the
//! points of the pieces removed for the handicap.

use crate::attacks::promotion_zone;
use crate::position::Position;
use crate::types::{Color, PieceKind};

/// Which declaration rule the game is played under.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum EnteringKingRule {
    /// Declaration not allowed.
    None,
    /// The 24-point rule: 31 points win.
    Csa24,
    /// The CSA 27-point rule (floodgate's): Black 28, White 27.
    #[default]
    Csa27,
    /// The 24-point rule, White credited with the handicap pieces.
    Csa24Handicap,
    /// The 27-point rule, White credited with the handicap pieces.
    Csa27Handicap,
}

/// Points of a whole set (both sides): 4 rooks/bishops × 5 + 34 minor pieces.
const FULL_SET_POINTS: u32 = 54;

fn points(kind: PieceKind) -> u32 {
    match kind.unpromote() {
        PieceKind::Bishop | PieceKind::Rook => 5,
        PieceKind::King => 0,
        _ => 1,
    }
}

impl Position {
    /// `c`'s declaration points: its hand plus its pieces in the enemy camp, king excluded.
    pub fn declaration_points(&self, c: Color) -> u32 {
        let hand = self.hand(c);
        let mut total: u32 = PieceKind::HAND.iter().map(|&k| hand.count(k) * points(k)).sum();
        for sq in self.pieces(c) & promotion_zone(c) {
            if let Some(p) = self.piece_on(sq) {
                total += points(p.kind());
            }
        }
        total
    }

    /// The points `c` needs to declare a win under `rule` (`None` when the rule forbids it).
    pub fn declaration_threshold(&self, rule: EnteringKingRule, c: Color) -> Option<u32> {
        let base: u32 = match (rule, c) {
            (EnteringKingRule::None, _) => return None,
            (EnteringKingRule::Csa24 | EnteringKingRule::Csa24Handicap, _) => 31,
            (EnteringKingRule::Csa27 | EnteringKingRule::Csa27Handicap, Color::Black) => 28,
            (EnteringKingRule::Csa27 | EnteringKingRule::Csa27Handicap, Color::White) => 27,
        };
        let handicap_aware = matches!(rule, EnteringKingRule::Csa24Handicap | EnteringKingRule::Csa27Handicap);
        if handicap_aware && c == Color::White {
            // Pieces never leave the game, so what is missing now was removed at the start.
            let present = self.declaration_points_everywhere();
            Some(base.saturating_sub(FULL_SET_POINTS.saturating_sub(present)))
        } else {
            Some(base)
        }
    }

    /// Points of every piece on the board and in both hands (kings excluded).
    fn declaration_points_everywhere(&self) -> u32 {
        let mut total = 0;
        for c in Color::ALL {
            let hand = self.hand(c);
            total += PieceKind::HAND.iter().map(|&k| hand.count(k) * points(k)).sum::<u32>();
        }
        for sq in self.occupied() {
            if let Some(p) = self.piece_on(sq) {
                total += points(p.kind());
            }
        }
        total
    }

    /// Whether the side to move may declare a win now under `rule`.
    pub fn can_declare_win(&self, rule: EnteringKingRule) -> bool {
        let us = self.side_to_move();
        let Some(threshold) = self.declaration_threshold(rule, us) else {
            return false;
        };
        let Some(ksq) = self.king_square(us) else { return false };
        let camp = promotion_zone(us);
        if !camp.contains(ksq) || self.in_check() {
            return false;
        }
        let others_in_camp = (self.pieces(us) & camp).count() - 1;
        others_in_camp >= 10 && self.declaration_points(us) >= threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_and_declaration() {
        let p = Position::from_sfen("2BR4K/1GBG2+P+P+P/3GN4/9/9/9/9/9/6k2 b RG4S3N4L15P 1").unwrap();
        assert_eq!(p.declaration_points(Color::Black), 54);
        assert_eq!(p.declaration_points(Color::White), 0);
        assert!(p.can_declare_win(EnteringKingRule::Csa27));
        assert!(!p.can_declare_win(EnteringKingRule::None));
        assert!(!Position::startpos().can_declare_win(EnteringKingRule::Csa27));
    }

    #[test]
    fn handicap_thresholds() {
        let two_piece = Position::from_sfen("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1").unwrap();
        assert_eq!(
            two_piece.declaration_threshold(EnteringKingRule::Csa27Handicap, Color::White),
            Some(17)
        );
        assert_eq!(
            two_piece.declaration_threshold(EnteringKingRule::Csa27, Color::White),
            Some(27)
        );
        assert_eq!(
            two_piece.declaration_threshold(EnteringKingRule::Csa24Handicap, Color::White),
            Some(21)
        );
        assert_eq!(
            two_piece.declaration_threshold(EnteringKingRule::Csa27Handicap, Color::Black),
            Some(28)
        );
    }
}
