//! Standard output that ends quietly when its reader has gone
//! (`gpuplan fit | head`): `print!` panics on a closed pipe.

use std::io::{self, Write};
use std::process;

/// Writes `text` as it is.
pub fn print(text: &str) {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
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
