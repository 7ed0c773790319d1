//! A synthetic price sheet in SkyPilot's per-region schema, for the big-sheet
//! bench and test: instances of catalog and non-catalog cards and CPU-only
//! rows, each instance in several regions of three zones (rows that merge),
//! prices varying by row. Made up; it measures reading, not prices.

/// Cards the rows cycle through: catalog cards, one unmapped card and a CPU
/// instance (no accelerator).
const CARDS: [(&str, u32, f64); 6] = [
    ("H100", 8, 98.32),
    ("A100-80GB", 8, 40.96),
    ("L4", 1, 0.80),
    ("T4", 4, 3.91),
    ("A40", 2, 1.70),
    ("", 0, 0.34),
];

/// Zones per region: rows of one instance in one region merge into one offer.
const ZONES: usize = 3;
const REGIONS: usize = 8;

/// `rows` data rows after the header.
pub fn skypilot(rows: usize) -> String {
    let mut out = String::with_capacity(rows * 48 + 80);
    out.push_str("InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,Price,Region,SpotPrice\n");
    for row in 0..rows {
        let zone = row % ZONES;
        let region = (row / ZONES) % REGIONS;
        let instance = row / (ZONES * REGIONS);
        let Some(&(card, count, base)) = CARDS.get(instance % CARDS.len()) else { continue };
        let price = base * (1.0 + 0.01 * ((row * 7) % 13) as f64);
        let spot = if zone == 1 { String::new() } else { format!("{:.4}", price * 0.4) };
        let count = if count == 0 { String::new() } else { count.to_string() };
        out.push_str(&format!(
            "g{instance}.{count}x,{card},{count},32,128.0,{price:.4},region-{region},{spot}\n"
        ));
    }
    out
}
