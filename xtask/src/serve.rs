//! A small loopback static server for dist/, so serving needs nothing beyond
//! the standard library. GET and HEAD only; paths cannot leave the folder.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};

use crate::sh::Result;

pub fn run(addr: &str, dir: &Path) -> Result {
    let listener = TcpListener::bind(addr).map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    println!("\ngpuplan is served on http://{addr}/ (Ctrl-C stops)");
    for stream in listener.incoming().flatten() {
        let dir = dir.to_path_buf();
        std::thread::spawn(move || {
            let _ = respond(stream, &dir);
        });
    }
    Ok(())
}

fn respond(mut stream: TcpStream, dir: &Path) -> std::io::Result<()> {
    let mut line = String::new();
    BufReader::new(&stream).read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("");
    let target = parts.next().unwrap_or("/");
    let (status, kind, body) = match (method, resolve(dir, target)) {
        ("GET" | "HEAD", Some(path)) => match std::fs::read(&path) {
            Ok(body) => ("200 OK", mime(&path), body),
            Err(_) => ("404 Not Found", "text/plain", b"not found".to_vec()),
        },
        ("GET" | "HEAD", None) => ("404 Not Found", "text/plain", b"not found".to_vec()),
        _ => ("405 Method Not Allowed", "text/plain", b"method not allowed".to_vec()),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes())?;
    if method != "HEAD" {
        stream.write_all(&body)?;
    }
    Ok(())
}

/// The file a request path names inside `dir`; "/" and folders give index.html.
fn resolve(dir: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("/");
    let rel = Path::new(path.trim_start_matches('/'));
    if rel.components().any(|c| !matches!(c, Component::Normal(_))) {
        return None;
    }
    let full = dir.join(rel);
    let full = if full.is_dir() { full.join("index.html") } else { full };
    full.is_file().then_some(full)
}

fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "wasm" => "application/wasm",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        _ => "application/octet-stream",
    }
}
