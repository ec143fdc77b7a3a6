//! Turning a record's bytes into text: UTF-8 (with or without a byte-order mark) or, failing
//! that, Shift JIS as Windows writes it (CP932, the usual encoding of `.kif` files).

use crate::KifuError;
use encoding_rs::SHIFT_JIS;

/// Decodes a record's bytes: UTF-8 with its BOM removed if it has one, else Shift JIS (CP932).
/// Bytes with a NUL in them are refused as binary; bytes valid in neither encoding are refused
/// too, rather than read with replacement characters.
pub fn decode_text(bytes: &[u8]) -> Result<String, KifuError> {
    if bytes.contains(&0) {
        return Err(KifuError::Binary);
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        return Ok(text.to_owned());
    }
    // encoding_rs's Shift JIS is the WHATWG one, which is CP932 (NEC and IBM extensions too).
    SHIFT_JIS
        .decode_without_bom_handling_and_without_replacement(bytes)
        .map(std::borrow::Cow::into_owned)
        .ok_or(KifuError::Encoding)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encodings() {
        assert_eq!(decode_text("\u{feff}手合割".as_bytes()).unwrap(), "手合割");
        let (sjis, _, bad) = SHIFT_JIS.encode("７六歩①");
        assert!(!bad);
        assert_eq!(decode_text(&sjis).unwrap(), "７六歩①");
        assert_eq!(decode_text(b"PI\x00"), Err(KifuError::Binary));
        assert_eq!(decode_text(b"\xff\xff"), Err(KifuError::Encoding));
        assert_eq!(decode_text(b"").unwrap(), "");
    }
}
