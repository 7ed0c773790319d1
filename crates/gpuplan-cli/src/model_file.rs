//! `--config FILE`, `--gguf FILE`, `--safetensors FILE`: a model read from
//! the files the user has. Weights files are read only as far as their
//! header: the buffer grows to what the reader says it needs, so a 50 GB
//! GGUF costs a few megabytes of reading.

use std::io::Read;

use gpuplan_core::lang::Lang;
use gpuplan_core::model_files::files::{FIRST_READ, MAX_HEADER_READ};
use gpuplan_core::model_files::{self, FileError, Imported};

use crate::error::CliError;

/// The model the file flags give, or None when none was given.
pub fn read(
    config: Option<String>,
    gguf: Option<String>,
    safetensors: Option<String>,
) -> Result<Option<Imported>, CliError> {
    let from_weights = match (gguf, safetensors) {
        (Some(_), Some(_)) => return Err(CliError("--gguf and --safetensors: give one of them".into())),
        (Some(path), None) => Some(weights_file(&path, "gguf", |b, _| model_files::import_gguf(b))?),
        (None, Some(path)) if path.ends_with(".json") => {
            let text = text_file(&path, "safetensors")?;
            Some(model_files::import_safetensors_index(&text).map_err(|e| fail("safetensors", &path, &e))?)
        }
        (None, Some(path)) => Some(weights_file(&path, "safetensors", model_files::import_safetensors)?),
        (None, None) => None,
    };
    let Some(path) = config else { return Ok(from_weights) };
    let text = text_file(&path, "config")?;
    let shape = model_files::config::import(&text).map_err(|e| fail("config", &path, &e))?;
    // config.json gives the exact shape; a weights file beside it, the exact bytes.
    Ok(Some(match from_weights {
        Some(w) => shape.with_weights(w),
        None => shape,
    }))
}

/// What was read, assumed and ignored, on stderr.
pub fn report(m: &Imported) {
    let read: Vec<String> = m.read.iter().map(|i| format!("{}={}", i.key, i.value)).collect();
    eprintln!("notice: model read from {:?}: {}", m.kind, read.join(", "));
    for a in &m.assumed {
        eprintln!("notice: assumed {}={} ({})", a.key, a.value, a.why.label(Lang::En));
    }
    if !m.ignored.is_empty() {
        eprintln!("notice: ignored: {}", m.ignored.join(", "));
    }
}

fn fail(flag: &str, path: &str, e: &FileError) -> CliError {
    CliError(format!("--{flag} {path}: {}", e.message(Lang::En)))
}

fn open(path: &str, flag: &str) -> Result<(Box<dyn Read>, Option<u64>), CliError> {
    if path == "-" {
        return Ok((Box::new(std::io::stdin()), None));
    }
    let file = std::fs::File::open(path).map_err(|e| CliError(format!("--{flag} {path}: {e}")))?;
    let size = file.metadata().ok().map(|m| m.len());
    Ok((Box::new(file), size))
}

fn text_file(path: &str, flag: &str) -> Result<String, CliError> {
    let (r, _) = open(path, flag)?;
    let mut text = String::new();
    r.take(MAX_HEADER_READ)
        .read_to_string(&mut text)
        .map_err(|e| CliError(format!("--{flag} {path}: {e}")))?;
    Ok(text)
}

/// Reads the start of a weights file, growing the buffer while the parser
/// says the header goes on.
fn weights_file(
    path: &str,
    flag: &str,
    parse: impl Fn(&[u8], Option<u64>) -> Result<Imported, FileError>,
) -> Result<Imported, CliError> {
    let (mut r, size) = open(path, flag)?;
    let mut buf = Vec::new();
    let mut want = FIRST_READ;
    loop {
        let more = want.saturating_sub(buf.len() as u64);
        let got = (&mut r)
            .take(more)
            .read_to_end(&mut buf)
            .map_err(|e| CliError(format!("--{flag} {path}: {e}")))?;
        match parse(&buf, size) {
            Err(FileError::Truncated(t)) if got > 0 && t.need_at_least <= MAX_HEADER_READ => {
                want = t.need_at_least.max(want.saturating_mul(2)).min(MAX_HEADER_READ);
            }
            Err(e) => return Err(fail(flag, path, &e)),
            Ok(m) => return Ok(m),
        }
    }
}
