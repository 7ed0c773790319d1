//! `gpuplan`: the core on the command line.
fn main() {
    println!("gpuplan");
}
