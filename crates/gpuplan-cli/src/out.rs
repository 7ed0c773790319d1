//! Standard output that ends quietly when its reader has gone
//! (`gpuplan fit | head`): `print!` panics on a closed pipe.

use std::io::{self, Write};
use std::process;

use serde::Serialize;

use crate::error::CliError;

/// Writes `text` as it is.
pub fn print(text: &str) {
    let mut out = io::stdout().lock();
    finish(out.write_all(text.as_bytes()).and_then(|()| out.flush()));
}

/// Writes `value` as indented JSON and a newline, streamed: a report on a
/// whole price sheet is never held as text.
pub fn json<T: Serialize + ?Sized>(value: &T) -> Result<(), CliError> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    match serde_json::to_writer_pretty(&mut out, value) {
        Ok(()) => finish(out.write_all(b"\n").and_then(|()| out.flush())),
        Err(e) if e.is_io() => finish(Err(e.into())),
        Err(e) => return Err(CliError(e.to_string())),
    }
    Ok(())
}

/// Ends the process on a failed write: quietly when the reader has gone.
fn finish(written: io::Result<()>) {
    match written {
        Ok(()) => {}
        // The reader has what it wanted; what is left has nowhere to go.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => process::exit(0),
        Err(e) => {
            eprintln!("error: writing the output: {e}");
            process::exit(1);
        }
    }
}

/// Writes `text` and a newline.
pub fn line(text: &str) {
    print(&format!("{text}\n"));
}
