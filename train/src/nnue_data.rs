//! The NNUE's training data: one fixed-size record a position, in checksummed blocks, appended
//! to a file that survives being cut off at any byte.
//!
//! A record ([`RECORD_BYTES`] = 44 bytes, little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | `0..32` | the position, [`Position::pack`] |
//! | `32..34` | the search's score, centipawns from the side to move's view (`i16`) |
//! | `34..36` | the search's best move, [`soppo_core::Move::raw`] (`u16`) |
//! | `36..38` | the ply: plies from the game's initial arrangement (SFEN move number − 1; `u16`) |
//! | `38` | the game's result for the side to move: 1 win, 0 draw, −1 loss (`i8`) |
//! | `39` | flags: bit 0 set when the game started from a handicap |
//! | `40..44` | the game's number within its file (`u32`) |
//!
//! A file is a sequence of blocks, each a [`HEADER_BYTES`] (24-byte) header and a payload:
//!
//! | bytes | field |
//! |---|---|
//! | `0..4` | [`MAGIC`], `SPDB` |
//! | `4` | [`VERSION`] |
//! | `5` | kind: 0 records, 1 the run's description |
//! | `6..8` | [`RECORD_BYTES`] (`u16`) |
//! | `8..12` | payload bytes (`u32`) |
//! | `12..16` | records (`u32`) |
//! | `16..20` | games (`u32`) |
//! | `20..24` | CRC-32 of header bytes `0..20` and the payload (`u32`) |
//!
//! A records block's payload is its records and then the numbers of the games it completes
//! (`u32` each): a block holds whole games, so a file's games are exactly those of its whole
//! blocks. A description block (the first of a file) holds the generator's settings as UTF-8
//! text, `key=value` lines, by which a resumed run checks that it goes on with the same ones.
//!
//! Blocks are written with one `write` each and never rewritten: a generator killed at any
//! moment leaves whole blocks and at most one cut-off block at the end, which [`read`] drops,
//! saying how many bytes (and, when its header is whole, how many records) it lost.

use anyhow::{Context, Result, ensure};
use soppo_core::{PACKED_BYTES, PackedPosition, Position};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Bytes of a record.
pub const RECORD_BYTES: usize = 44;
/// Bytes of a block header.
pub const HEADER_BYTES: usize = 24;
/// The first bytes of every block.
pub const MAGIC: &[u8; 4] = b"SPDB";
/// The block format's version.
pub const VERSION: u8 = 1;
/// The largest payload a header may announce (a guard against a damaged header asking for
/// gigabytes): 16 MiB.
pub const MAX_PAYLOAD: usize = 16 << 20;

const KIND_RECORDS: u8 = 0;
const KIND_DESCRIPTION: u8 = 1;

/// Record flag: the game started from a handicap position.
pub const FLAG_HANDICAP: u8 = 1;

/// One training position and its labels.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub packed: PackedPosition,
    /// Centipawns, side to move's view.
    pub score: i16,
    /// The searched best move ([`soppo_core::Move::raw`]).
    pub best: u16,
    /// Plies from the game's initial arrangement.
    pub ply: u16,
    /// The game's result for the side to move: 1, 0 or −1.
    pub result: i8,
    pub flags: u8,
    /// The game's number within its file.
    pub game: u32,
}

impl Record {
    /// The record's bytes.
    pub fn to_bytes(&self) -> [u8; RECORD_BYTES] {
        let mut b = [0u8; RECORD_BYTES];
        b[..PACKED_BYTES].copy_from_slice(&self.packed);
        b[32..34].copy_from_slice(&self.score.to_le_bytes());
        b[34..36].copy_from_slice(&self.best.to_le_bytes());
        b[36..38].copy_from_slice(&self.ply.to_le_bytes());
        b[38] = self.result as u8;
        b[39] = self.flags;
        b[40..44].copy_from_slice(&self.game.to_le_bytes());
        b
    }

    /// The record of [`Record::to_bytes`].
    pub fn from_bytes(b: &[u8; RECORD_BYTES]) -> Record {
        let mut packed = [0u8; PACKED_BYTES];
        packed.copy_from_slice(&b[..PACKED_BYTES]);
        Record {
            packed,
            score: i16::from_le_bytes([b[32], b[33]]),
            best: u16::from_le_bytes([b[34], b[35]]),
            ply: u16::from_le_bytes([b[36], b[37]]),
            result: b[38] as i8,
            flags: b[39],
            game: u32::from_le_bytes([b[40], b[41], b[42], b[43]]),
        }
    }

    /// The position.
    pub fn position(&self) -> Result<Position, soppo_core::UnpackError> {
        Position::unpack(&self.packed)
    }

    /// The result as a training target: 1 win, ½ draw, 0 loss.
    pub fn result_target(&self) -> f32 {
        f32::midpoint(f32::from(self.result.clamp(-1, 1)), 1.0)
    }
}

/// A block's bytes: header and payload.
fn encode(kind: u8, payload: &[u8], records: u32, games: u32) -> Vec<u8> {
    assert!(payload.len() <= MAX_PAYLOAD, "a block of {} bytes", payload.len());
    let mut out = Vec::with_capacity(HEADER_BYTES + payload.len());
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    out.push(kind);
    out.extend_from_slice(&(RECORD_BYTES as u16).to_le_bytes());
    out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    out.extend_from_slice(&records.to_le_bytes());
    out.extend_from_slice(&games.to_le_bytes());
    let mut crc = crc32fast::Hasher::new();
    crc.update(&out);
    crc.update(payload);
    out.extend_from_slice(&crc.finalize().to_le_bytes());
    out.extend_from_slice(payload);
    out
}

/// A records block: `records`, then the games it completes.
pub fn records_block(records: &[Record], games: &[u32]) -> Vec<u8> {
    let mut payload = Vec::with_capacity(records.len() * RECORD_BYTES + games.len() * 4);
    for r in records {
        payload.extend_from_slice(&r.to_bytes());
    }
    for g in games {
        payload.extend_from_slice(&g.to_le_bytes());
    }
    encode(KIND_RECORDS, &payload, records.len() as u32, games.len() as u32)
}

/// A description block.
pub fn description_block(text: &str) -> Vec<u8> {
    encode(KIND_DESCRIPTION, text.as_bytes(), 0, 0)
}

/// What was wrong with the first block that was not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Damage {
    /// The file ends inside a block's header.
    CutHeader,
    /// The file ends inside a block's payload (`present` of `expected` bytes).
    CutPayload { present: u64, expected: u64 },
    /// A whole block whose checksum does not match.
    Checksum,
    /// Bytes that are not a block of this format (`what`).
    NotABlock(&'static str),
}

/// The part of a file after its last whole, valid block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tail {
    /// Where it starts (the valid part's length).
    pub offset: u64,
    /// Its length.
    pub bytes: u64,
    /// The records its first block's header announces, when the header is whole.
    pub records: Option<u32>,
    pub damage: Damage,
}

impl Tail {
    /// Whether the tail is a block cut off by the end of the file (a killed writer), which a
    /// resumed writer may cut away; any other damage may hide good blocks after it.
    pub fn is_cut_off(&self) -> bool {
        matches!(self.damage, Damage::CutHeader | Damage::CutPayload { .. })
    }
}

impl fmt::Display for Tail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} bytes after the last whole block (at byte {}) dropped: ",
            self.bytes, self.offset
        )?;
        match &self.damage {
            Damage::CutHeader => write!(f, "a block cut off in its header")?,
            Damage::CutPayload { present, expected } => {
                write!(f, "a block cut off ({present} of its {expected} payload bytes present)")?;
            }
            Damage::Checksum => write!(f, "a block whose checksum does not match")?,
            Damage::NotABlock(what) => write!(f, "not a block ({what})")?,
        }
        if let Some(n) = self.records {
            write!(f, ", {n} records lost")?;
        }
        Ok(())
    }
}

/// A data file as far as it is whole.
#[derive(Clone, Debug, Default)]
pub struct DataFile {
    /// The run's description (the first block's), if any.
    pub description: Option<String>,
    pub records: Vec<Record>,
    /// The games its blocks complete, in file order.
    pub games: Vec<u32>,
    /// Whole blocks read.
    pub blocks: usize,
    /// Bytes of the whole blocks.
    pub valid_bytes: u64,
    /// What follows the last whole block, if anything.
    pub tail: Option<Tail>,
}

/// Reads as many bytes as `buf` holds or the reader has; returns how many.
fn read_up_to(r: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Reads the whole blocks of a data stream of `len` bytes; stops at the first block that is
/// not whole and valid, and says what it was in [`DataFile::tail`].
pub fn read_from(mut r: impl Read, len: u64) -> io::Result<DataFile> {
    let mut file = DataFile::default();
    let mut header = [0u8; HEADER_BYTES];
    let mut payload = Vec::new();
    loop {
        let offset = file.valid_bytes;
        let tail = |records, damage| Tail {
            offset,
            bytes: len.saturating_sub(offset),
            records,
            damage,
        };
        let got = read_up_to(&mut r, &mut header)?;
        if got == 0 {
            return Ok(file);
        }
        if got < HEADER_BYTES {
            let damage = if header[..got.min(4)] == MAGIC[..got.min(4)] {
                Damage::CutHeader
            } else {
                Damage::NotABlock("bad magic")
            };
            file.tail = Some(tail(None, damage));
            return Ok(file);
        }
        let u32_at = |i: usize| u32::from_le_bytes(header[i..i + 4].try_into().expect("4 bytes"));
        let (kind, size, records, games) = (header[5], u32_at(8) as usize, u32_at(12), u32_at(16));
        let problem = if &header[..4] != MAGIC {
            Some("bad magic")
        } else if header[4] != VERSION {
            Some("another version")
        } else if u16::from_le_bytes([header[6], header[7]]) as usize != RECORD_BYTES {
            Some("another record size")
        } else if size > MAX_PAYLOAD {
            Some("a payload beyond the largest block")
        } else if kind == KIND_RECORDS && size != records as usize * RECORD_BYTES + games as usize * 4 {
            Some("a payload size that does not match its counts")
        } else if kind > KIND_DESCRIPTION {
            Some("an unknown kind")
        } else {
            None
        };
        if let Some(what) = problem {
            file.tail = Some(tail(None, Damage::NotABlock(what)));
            return Ok(file);
        }
        let records_said = (kind == KIND_RECORDS).then_some(records);
        payload.resize(size, 0);
        let got = read_up_to(&mut r, &mut payload)?;
        if got < size {
            let damage = Damage::CutPayload {
                present: got as u64,
                expected: size as u64,
            };
            file.tail = Some(tail(records_said, damage));
            return Ok(file);
        }
        let mut crc = crc32fast::Hasher::new();
        crc.update(&header[..20]);
        crc.update(&payload);
        if crc.finalize() != u32_at(20) {
            file.tail = Some(tail(records_said, Damage::Checksum));
            return Ok(file);
        }
        if kind == KIND_DESCRIPTION {
            let Ok(text) = String::from_utf8(payload.clone()) else {
                file.tail = Some(tail(None, Damage::NotABlock("a description that is not UTF-8")));
                return Ok(file);
            };
            file.description.get_or_insert(text);
        } else {
            let (recs, ids) = payload.split_at(records as usize * RECORD_BYTES);
            for chunk in recs.chunks_exact(RECORD_BYTES) {
                file.records
                    .push(Record::from_bytes(chunk.try_into().expect("a record")));
            }
            for id in ids.chunks_exact(4) {
                file.games.push(u32::from_le_bytes(id.try_into().expect("4 bytes")));
            }
        }
        file.blocks += 1;
        file.valid_bytes += (HEADER_BYTES + size) as u64;
    }
}

/// Reads a data file (see [`read_from`]).
pub fn read(path: &Path) -> Result<DataFile> {
    let f = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let len = f.metadata()?.len();
    read_from(io::BufReader::with_capacity(1 << 20, f), len).with_context(|| format!("cannot read {}", path.display()))
}

/// Appends blocks to a data file.
#[derive(Debug)]
pub struct DataWriter {
    file: File,
    path: PathBuf,
}

impl DataWriter {
    /// A new file (refused if it exists) starting with the run's description.
    pub fn create(path: &Path, description: &str) -> Result<DataWriter> {
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
            .with_context(|| format!("cannot create {}", path.display()))?;
        let mut w = DataWriter {
            file,
            path: path.to_owned(),
        };
        w.write(&description_block(description))?;
        Ok(w)
    }

    /// An existing file read as `existing` says, cut back to its whole blocks (only a block
    /// cut off at the end is cut away: other damage is refused), ready to append.
    pub fn resume(path: &Path, existing: &DataFile) -> Result<DataWriter> {
        if let Some(tail) = &existing.tail {
            ensure!(
                tail.is_cut_off(),
                "{}: {tail}; a damaged block before the end may hide good ones after it, so the file is left \
                 as it is (keep its first {} bytes with `truncate -s {} FILE` to go on)",
                path.display(),
                tail.offset,
                tail.offset
            );
        }
        ensure!(
            existing.blocks > 0,
            "{}: not one whole block; remove it to start again",
            path.display()
        );
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .with_context(|| format!("cannot write {}", path.display()))?;
        file.set_len(existing.valid_bytes)
            .with_context(|| format!("cannot cut {} back to its whole blocks", path.display()))?;
        Ok(DataWriter {
            file,
            path: path.to_owned(),
        })
    }

    fn write(&mut self, block: &[u8]) -> Result<()> {
        self.file
            .write_all(block)
            .with_context(|| format!("cannot write {}", self.path.display()))
    }

    /// Appends a block of `records` completing `games`.
    pub fn write_records(&mut self, records: &[Record], games: &[u32]) -> Result<()> {
        self.write(&records_block(records, games))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(i: u32) -> Record {
        let mut pos = Position::startpos();
        let moves: Vec<_> = pos.legal_moves().iter().copied().collect();
        pos.do_move(moves[i as usize % moves.len()]);
        Record {
            packed: pos.pack().unwrap(),
            score: (i as i16 * 37) - 300,
            best: moves[0].raw(),
            ply: i as u16,
            result: (i % 3) as i8 - 1,
            flags: (i % 2) as u8,
            game: i / 3,
        }
    }

    fn file_of(blocks: &[Vec<u8>]) -> Vec<u8> {
        blocks.concat()
    }

    fn parse(bytes: &[u8]) -> DataFile {
        read_from(bytes, bytes.len() as u64).unwrap()
    }

    #[test]
    fn records_and_blocks_read_back_as_written() {
        let r = record(5);
        assert_eq!(Record::from_bytes(&r.to_bytes()), r);
        assert_eq!(r.position().unwrap().pack().unwrap(), r.packed);
        let all: Vec<Record> = (0..30).map(record).collect();
        let bytes = file_of(&[
            description_block("seed=1\n"),
            records_block(&all[..12], &[0, 1, 2, 3]),
            records_block(&all[12..], &[4, 5, 6, 7, 8, 9]),
        ]);
        let f = parse(&bytes);
        assert_eq!(f.description.as_deref(), Some("seed=1\n"));
        assert_eq!(f.records, all);
        assert_eq!(f.games, (0..10).collect::<Vec<u32>>());
        assert_eq!((f.blocks, f.valid_bytes, f.tail), (3, bytes.len() as u64, None));
    }

    #[test]
    fn a_file_cut_anywhere_reads_up_to_its_last_whole_block() {
        let all: Vec<Record> = (0..9).map(record).collect();
        let first = [description_block("x"), records_block(&all[..6], &[0, 1])].concat();
        let bytes = [first.clone(), records_block(&all[6..], &[2])].concat();
        for cut in first.len() + 1..bytes.len() {
            let f = parse(&bytes[..cut]);
            assert_eq!(f.records, all[..6], "cut at {cut}");
            assert_eq!(f.games, [0, 1]);
            assert_eq!(f.valid_bytes, first.len() as u64);
            let tail = f.tail.unwrap();
            assert!(tail.is_cut_off(), "{tail}");
            assert_eq!(tail.bytes, (cut - first.len()) as u64);
            // The header says how many records were lost once it is whole.
            let whole_header = cut - first.len() >= HEADER_BYTES;
            assert_eq!(tail.records, whole_header.then_some(3), "cut at {cut}");
            let text = tail.to_string();
            assert!(text.contains("dropped") && text.contains("cut off"), "{text}");
        }
    }

    #[test]
    fn damage_is_found_and_named() {
        let all: Vec<Record> = (0..4).map(record).collect();
        let good = [description_block("x"), records_block(&all[..2], &[0])].concat();
        let last = records_block(&all[2..], &[1]);
        let mut flipped = [good.clone(), last.clone()].concat();
        *flipped.last_mut().unwrap() ^= 1;
        let f = parse(&flipped);
        assert_eq!(f.records, all[..2]);
        let tail = f.tail.unwrap();
        assert_eq!(tail.damage, Damage::Checksum);
        assert!(!tail.is_cut_off());
        let garbage = [good.clone(), b"hello, world, this is not a block".to_vec()].concat();
        let tail = parse(&garbage).tail.unwrap();
        assert_eq!(tail.damage, Damage::NotABlock("bad magic"));
        // A header announcing a huge payload is not believed.
        let mut huge = last.clone();
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        let tail = parse(&[good.clone(), huge].concat()).tail.unwrap();
        assert_eq!(tail.damage, Damage::NotABlock("a payload beyond the largest block"));
        assert!(parse(&[]).tail.is_none());
    }

    #[test]
    fn a_resumed_writer_cuts_a_cut_off_block_away_and_appends() {
        let dir = std::env::temp_dir().join(format!("soppo-nnue-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("resume.bin");
        let _ = std::fs::remove_file(&path);
        let all: Vec<Record> = (0..9).map(record).collect();
        let mut w = DataWriter::create(&path, "run\n").unwrap();
        w.write_records(&all[..3], &[0]).unwrap();
        w.write_records(&all[3..6], &[1]).unwrap();
        drop(w);
        let len = std::fs::metadata(&path).unwrap().len();
        let f = OpenOptions::new().write(true).open(&path).unwrap();
        f.set_len(len - 7).unwrap();
        let existing = read(&path).unwrap();
        assert_eq!(existing.games, [0]);
        let mut w = DataWriter::resume(&path, &existing).unwrap();
        w.write_records(&all[3..9], &[1, 2]).unwrap();
        drop(w);
        let back = read(&path).unwrap();
        assert_eq!(back.records, all);
        assert_eq!(back.games, [0, 1, 2]);
        assert_eq!(back.description.as_deref(), Some("run\n"));
        assert!(back.tail.is_none());
        // Damage that is not a cut-off end is left alone.
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER_BYTES + 4 + 30] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let damaged = read(&path).unwrap();
        let err = DataWriter::resume(&path, &damaged).unwrap_err().to_string();
        assert!(err.contains("checksum") && err.contains("truncate -s"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
