//! Files as the user hands them over: one or several at once (a config.json
//! beside its weights, every shard of a split GGUF or safetensors
//! checkpoint), each read only as far as its header. The page and the CLI
//! both read the first bytes of each file and ask `more_needed` how far to
//! go on, so a 40 GB file costs the same few megabytes as a 4 MB one.

use serde::Serialize;

use super::gguf::{self, Header};
use super::safetensors::{self, Tensor};
use super::{config, from_gguf, from_safetensors, FileError, Imported, Truncated};

/// The first slice read of a weights file: most headers fit in it.
pub const FIRST_READ: u64 = 1 << 20;
/// More than any real header (a GGUF's tokenizer arrays are a few MB;
/// safetensors caps its header at 100 MB).
pub const MAX_HEADER_READ: u64 = 256 << 20;
/// A config.json or an index is read whole; DeepSeek-V3's index is 4 MB.
pub const MAX_TEXT: u64 = 32 << 20;

/// What a file is, by its first bytes, else its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileKind {
    Config,
    Gguf,
    Safetensors,
    SafetensorsIndex,
}

impl FileKind {
    /// The kind a file is read as. A name that promises a format wins over
    /// content, so a PNG renamed `.gguf` is refused by the GGUF reader with
    /// a notice that says so, rather than guessed at.
    pub fn detect(name: &str, head: &[u8]) -> Option<FileKind> {
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".gguf") || head.starts_with(b"GGUF") {
            return Some(FileKind::Gguf);
        }
        if lower.ends_with(".safetensors") {
            return Some(FileKind::Safetensors);
        }
        let text = head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{');
        if lower.ends_with(".json") || text {
            return Some(FileKind::json(head));
        }
        // An unnamed safetensors file: an 8-byte length, then its JSON header.
        (head.get(8) == Some(&b'{')).then_some(FileKind::Safetensors)
    }

    /// A JSON text as an index (it maps tensors to files) or a config.
    pub fn json(text: &[u8]) -> FileKind {
        if contains(text, b"\"weight_map\"") {
            FileKind::SafetensorsIndex
        } else {
            FileKind::Config
        }
    }

    fn is_text(self) -> bool {
        matches!(self, FileKind::Config | FileKind::SafetensorsIndex)
    }
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// How many bytes from the start of a file to read next, or None when
/// `bytes` already hold all a reader needs. `size` is the file's length.
pub fn more_needed(kind: FileKind, bytes: &[u8], size: u64) -> Result<Option<u64>, FileError> {
    let have = bytes.len() as u64;
    if kind.is_text() {
        if size > MAX_TEXT {
            return Err(FileError::Absurd { what: format!("a {size}-byte JSON file") });
        }
        return Ok((have < size).then_some(size));
    }
    let need = match header_of(kind, bytes, Some(size)) {
        Ok(()) => return Ok(None),
        Err(FileError::Truncated(t)) => t.need_at_least,
        Err(e) => return Err(e),
    };
    if need > MAX_HEADER_READ {
        return Err(FileError::Absurd { what: format!("a header of {need} bytes or more") });
    }
    if have >= size || need > size {
        return Err(FileError::Truncated(Truncated { need_at_least: need }));
    }
    Ok(Some(need.max(have.saturating_mul(2)).max(FIRST_READ).min(size).min(MAX_HEADER_READ)))
}

/// Whether `bytes` hold a weights file's whole header.
fn header_of(kind: FileKind, bytes: &[u8], size: Option<u64>) -> Result<(), FileError> {
    match kind {
        FileKind::Gguf => gguf::read(bytes).map(|_| ()),
        _ => safetensors::read(bytes, size).map(|_| ()),
    }
}

/// One file as read: its name (for shard numbers), what it is, the bytes
/// read from its start, and its whole length.
pub struct Given<'a> {
    pub name: &'a str,
    pub kind: FileKind,
    pub bytes: &'a [u8],
    pub size: Option<u64>,
}

/// One model from files given together: a config.json gives the exact
/// shape, weights files (every shard of one checkpoint) the exact bytes,
/// an index the total where the shards are not at hand.
pub fn import(files: &[Given]) -> Result<Imported, FileError> {
    let of = |k: FileKind| files.iter().filter(move |f| f.kind == k);
    let configs: Vec<&Given> = of(FileKind::Config).collect();
    let indexes: Vec<&Given> = of(FileKind::SafetensorsIndex).collect();
    if configs.len() > 1 || indexes.len() > 1 {
        return Err(unsupported("several config.json or index files: give one model's files"));
    }
    let weights = weights(files, indexes.first().copied())?;
    let Some(c) = configs.first() else {
        return weights.ok_or(FileError::NotAModel { missing: vec!["config.json", ".gguf", ".safetensors"] });
    };
    let shape = config::import(&String::from_utf8_lossy(c.bytes))?;
    Ok(match weights {
        Some(w) => shape.with_weights(w),
        None => shape,
    })
}

fn unsupported(what: &str) -> FileError {
    FileError::Unsupported { what: what.into() }
}

/// The weights' model: every GGUF shard, else every safetensors shard,
/// else the index; None when only a config was given.
fn weights(files: &[Given], index: Option<&Given>) -> Result<Option<Imported>, FileError> {
    let ggufs: Vec<&Given> = files.iter().filter(|f| f.kind == FileKind::Gguf).collect();
    let shards: Vec<&Given> = files.iter().filter(|f| f.kind == FileKind::Safetensors).collect();
    match (ggufs.is_empty(), shards.is_empty()) {
        (false, false) => Err(unsupported("GGUF and safetensors files together: give one checkpoint")),
        (false, true) => split_gguf(&ggufs).map(Some),
        (true, false) => sharded_safetensors(&shards, index).map(Some),
        (true, true) => match index {
            Some(i) => super::import_safetensors_index(&String::from_utf8_lossy(i.bytes)).map(Some),
            None => Ok(None),
        },
    }
}

/// The shards of a split GGUF as one header: the first shard's metadata,
/// every shard's tensors. `split.count` says how many there must be.
fn split_gguf(files: &[&Given]) -> Result<Imported, FileError> {
    let mut headers = files.iter().map(|f| gguf::read(f.bytes)).collect::<Result<Vec<Header>, _>>()?;
    let total = headers.iter().find_map(|h| h.get("split.count").and_then(gguf::Value::as_u64));
    if let Some(total) = total.filter(|&t| t as usize != headers.len()) {
        return Err(FileError::MissingParts { given: headers.len() as u64, total });
    }
    if headers.len() > 1 && total.is_none() {
        return Err(unsupported("several GGUF files that are not shards of one split model"));
    }
    // The shard with the model's keys first; the others add their tensors.
    headers.sort_by_key(|h| h.architecture().is_none());
    let mut merged = headers.remove(0);
    for h in headers {
        merged.tensors.extend(h.tensors);
    }
    from_gguf::from_header(&merged)
}

/// Every shard's tensors as one checkpoint. Shard names
/// (`model-00001-of-00004.safetensors`) or the index say how many there are.
fn sharded_safetensors(files: &[&Given], index: Option<&Given>) -> Result<Imported, FileError> {
    let mut tensors: Vec<Tensor> = Vec::new();
    for f in files {
        tensors.extend(safetensors::read(f.bytes, f.size)?);
    }
    let from_index = match index {
        Some(i) => Some(safetensors::read_index(&String::from_utf8_lossy(i.bytes))?.shards as u64),
        None => None,
    };
    let total = from_index.or_else(|| files.iter().find_map(|f| shards_named(f.name)));
    if let Some(total) = total.filter(|&t| t != files.len() as u64) {
        return Err(FileError::MissingParts { given: files.len() as u64, total });
    }
    from_safetensors::from_tensors(&tensors)
}

/// N of `…-00001-of-0000N.safetensors`.
fn shards_named(name: &str) -> Option<u64> {
    let (_, rest) = name.rsplit_once("-of-")?;
    rest.split('.').next()?.parse().ok()
}

impl Imported {
    /// A config's exact shape with a weights file's exact bytes and format.
    pub fn with_weights(mut self, weights: Imported) -> Imported {
        self.arch.stored = weights.arch.stored;
        self.format = weights.format.or(self.format);
        self.read.extend(weights.read);
        self
    }
}
