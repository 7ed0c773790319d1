//! Hand-written SVG line charts: labelled axes, a horizontal limit, vertical
//! marks, a <title> tooltip at every end and bend and a visually hidden table with the
//! same numbers for screen readers. Geometry is plain Rust, tested natively.

use crate::dom::{h, s, El};
use gpuplan_core::present;

pub struct Series {
    pub name: String,
    /// CSS class giving the stroke colour.
    pub class: &'static str,
    pub points: Vec<(f64, f64)>,
}

pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub log_x: bool,
    pub series: Vec<Series>,
    /// A horizontal line (the GPU's usable memory) with its label.
    pub limit: Option<(f64, String)>,
    /// Vertical lines (break-even points, the longest context that fits).
    pub marks: Vec<(f64, String)>,
    pub x_fmt: fn(f64) -> String,
}

const W: f64 = 640.0;
const H: f64 = 280.0;
const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 16.0;
const BOTTOM: f64 = 44.0;

/// A linear or log₂ axis from data range to pixel range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axis {
    pub lo: f64,
    pub hi: f64,
    pub from: f64,
    pub to: f64,
    pub log: bool,
}

impl Axis {
    fn t(&self, v: f64) -> f64 {
        if self.log {
            v.max(f64::MIN_POSITIVE).log2()
        } else {
            v
        }
    }

    pub fn px(&self, v: f64) -> f64 {
        let (lo, hi) = (self.t(self.lo), self.t(self.hi));
        let span = if hi > lo { hi - lo } else { 1.0 };
        self.from + (self.t(v) - lo) / span * (self.to - self.from)
    }
}

/// About five round ticks (1, 2 or 5 × 10^k apart) covering 0..=max.
pub fn ticks(max: f64) -> Vec<f64> {
    if !(max.is_finite() && max > 0.0) {
        return vec![0.0, 1.0];
    }
    let raw = max / 5.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
    let n = (max / step).ceil() as usize;
    (0..=n).map(|i| i as f64 * step).collect()
}

/// Token counts as "512", "8K", "128K", "1M".
pub fn tokens(x: f64) -> String {
    if x >= 1_048_576.0 && x % 1_048_576.0 == 0.0 {
        format!("{}M", x / 1_048_576.0)
    } else if x >= 1024.0 && x % 1024.0 == 0.0 {
        format!("{}K", x / 1024.0)
    } else {
        present::grouped(x.round())
    }
}

/// Hours as a number with its unit.
pub fn hours(x: f64) -> String {
    format!("{} h", present::amount(x))
}

/// The range every series, the limit and the marks must fit in.
fn bounds(c: &Chart) -> (f64, f64, f64) {
    let xs = c.series.iter().flat_map(|s| s.points.iter().map(|p| p.0)).chain(c.marks.iter().map(|m| m.0));
    let (mut x_lo, mut x_hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for x in xs.filter(|x| x.is_finite()) {
        x_lo = x_lo.min(x);
        x_hi = x_hi.max(x);
    }
    if !x_lo.is_finite() {
        (x_lo, x_hi) = (0.0, 1.0);
    }
    let ys = c.series.iter().flat_map(|s| s.points.iter().map(|p| p.1)).chain(c.limit.iter().map(|l| l.0));
    let y_hi = ys.filter(|y| y.is_finite()).fold(0.0, f64::max);
    (x_lo, x_hi, y_hi)
}

fn text(x: f64, y: f64, anchor: &str, class: &str, label: &str) -> El {
    s("text").n("x", x).n("y", y).a("text-anchor", anchor).c(class).t(label)
}

fn line(class: &str, x1: f64, y1: f64, x2: f64, y2: f64) -> El {
    s("line").c(class).n("x1", x1).n("y1", y1).n("x2", x2).n("y2", y2)
}

pub fn chart(c: &Chart) -> El {
    let (x_lo, x_hi, y_max) = bounds(c);
    let yt = ticks(y_max * 1.05);
    let y_hi = yt.last().copied().unwrap_or(1.0);
    let x = Axis { lo: x_lo, hi: x_hi, from: LEFT, to: W - RIGHT, log: c.log_x };
    let y = Axis { lo: 0.0, hi: y_hi, from: H - BOTTOM, to: TOP, log: false };
    let x_ticks: Vec<f64> = if c.log_x {
        let v = c.series.first().map(|s| s.points.iter().map(|p| p.0).collect()).unwrap_or_default();
        thin(v)
    } else {
        ticks(x_hi).into_iter().filter(|t| *t <= x_hi).collect()
    };
    let (bottom, right) = (H - BOTTOM, W - RIGHT);
    let mut svg =
        s("svg").a("viewBox", &format!("0 0 {W:.0} {H:.0}")).a("role", "img").a("aria-label", &c.title);
    for v in yt {
        let py = y.px(v);
        svg = svg.k(line("grid", LEFT, py, right, py)).k(text(
            LEFT - 6.0,
            py + 4.0,
            "end",
            "tick",
            &present::amount(v),
        ));
    }
    svg = svg.k(line("axis", LEFT, bottom, right, bottom)).k(line("axis", LEFT, TOP, LEFT, bottom));
    for v in x_ticks {
        let px = x.px(v);
        svg = svg.k(line("axis", px, bottom, px, bottom + 4.0)).k(text(
            px,
            bottom + 16.0,
            "middle",
            "tick",
            &(c.x_fmt)(v),
        ));
    }
    if let Some((v, label)) = &c.limit {
        let py = y.px(*v);
        svg = svg.k(line("limit", LEFT, py, right, py)).k(text(
            right - 4.0,
            py - 5.0,
            "end",
            "limit-label",
            label,
        ));
    }
    for (v, label) in &c.marks {
        let px = x.px(*v);
        // A mark in the plot's right half is labelled to its left and at the
        // foot, so the label is never cut at the chart's edge nor drawn over
        // the limit's label in the top right corner.
        let (lx, ly, anchor) = if px > (LEFT + right) / 2.0 {
            (px - 4.0, bottom - 6.0, "end")
        } else {
            (px + 4.0, TOP + 10.0, "start")
        };
        svg = svg.k(line("mark", px, TOP, px, bottom)).k(text(lx, ly, anchor, "mark-label", label));
    }
    for sr in &c.series {
        let px: Vec<(f64, f64)> = sr.points.iter().map(|&(a, b)| (x.px(a), y.px(b))).collect();
        let pts: Vec<String> = px.iter().map(|(a, b)| format!("{a:.1},{b:.1}")).collect();
        let mut g = s("g").c(&format!("series {}", sr.class)).k(s("polyline").a("points", &pts.join(" ")));
        for ((&(a, b), &(cx, cy)), bend) in sr.points.iter().zip(&px).zip(bends(&px)) {
            if bend {
                let tip = format!("{}: {}, {}", sr.name, (c.x_fmt)(a), present::amount(b));
                g = g.k(s("circle").n("cx", cx).n("cy", cy).a("r", "3").k(s("title").t(&tip)));
            }
        }
        svg = svg.k(g);
    }
    let mid_y = (TOP + bottom) / 2.0;
    svg = svg.k(text((LEFT + right) / 2.0, H - 6.0, "middle", "axis-label", &c.x_label)).k(text(
        14.0,
        mid_y,
        "middle",
        "axis-label",
        &c.y_label,
    )
    .a("transform", &format!("rotate(-90 14 {mid_y:.1})")));
    let legend = (c.series.len() > 1).then(|| {
        h("ul").c("chart-legend").ks(c.series.iter().map(|sr| {
            h("li").k(h("span").c(&format!("key {}", sr.class)).a("aria-hidden", "true")).t(&sr.name)
        }))
    });
    h("figure").c("chart").k(svg).opt(legend).k(hidden_table(c))
}

/// Whether each point is an end or a bend: more than a quarter pixel off the
/// line through its neighbours. Cost series are straight between a few knots
/// but sampled on a fine grid; a marker on every sample would add hundreds of
/// elements to rebuild on each keystroke and no information (issue 10).
fn bends(px: &[(f64, f64)]) -> Vec<bool> {
    let off_line = |a: (f64, f64), b: (f64, f64), c: (f64, f64)| {
        let (dx, dy) = (c.0 - a.0, c.1 - a.1);
        let cross = (dx * (b.1 - a.1) - dy * (b.0 - a.0)).abs();
        cross > 0.25 * dx.hypot(dy)
    };
    (0..px.len())
        .map(|i| match (i.checked_sub(1).and_then(|j| px.get(j)), px.get(i), px.get(i + 1)) {
            (Some(&a), Some(&b), Some(&c)) => off_line(a, b, c),
            _ => true,
        })
        .collect()
}

/// At most eight labels on a log axis: every other one when crowded.
fn thin(v: Vec<f64>) -> Vec<f64> {
    if v.len() > 8 {
        v.into_iter().step_by(2).collect()
    } else {
        v
    }
}

/// The chart's numbers as a table, for screen readers.
fn hidden_table(c: &Chart) -> El {
    let head = c.series.iter().map(|sr| h("th").a("scope", "col").t(&sr.name));
    let xs: Vec<f64> = c.series.first().map(|sr| sr.points.iter().map(|p| p.0).collect()).unwrap_or_default();
    // The series share their x values. A long table keeps the rows where
    // some series bends: the rest lie on straight lines between them.
    let bent: Vec<Vec<bool>> = c.series.iter().map(|sr| bends(&sr.points)).collect();
    let kept = |i: usize| xs.len() <= 16 || bent.iter().any(|b| b.get(i).copied().unwrap_or(true));
    let rows = xs.iter().enumerate().filter(|&(i, _)| kept(i)).map(|(i, &xv)| {
        let cells = c
            .series
            .iter()
            .map(|sr| h("td").t(&sr.points.get(i).map(|p| present::amount(p.1)).unwrap_or_default()));
        h("tr").k(h("th").a("scope", "row").t(&(c.x_fmt)(xv))).ks(cells)
    });
    let extra = c.limit.iter().map(|l| &l.1).chain(c.marks.iter().map(|m| &m.1)).map(|s| h("li").t(s));
    let table = h("table")
        .k(h("caption").t(&c.title))
        .k(h("thead").k(h("tr").k(h("th").a("scope", "col").t(&c.x_label)).ks(head)))
        .k(h("tbody").ks(rows));
    h("div").c("visually-hidden").k(table).k(h("ul").ks(extra))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_ticks() {
        assert_eq!(ticks(100.0), vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]);
        assert_eq!(ticks(7.3), vec![0.0, 2.0, 4.0, 6.0, 8.0]);
        assert_eq!(ticks(0.0), vec![0.0, 1.0]);
        assert_eq!(ticks(f64::NAN), vec![0.0, 1.0]);
    }

    #[test]
    fn axes_map_ends_to_pixels() {
        let lin = Axis { lo: 0.0, hi: 10.0, from: 100.0, to: 0.0, log: false };
        assert_eq!(lin.px(0.0), 100.0);
        assert_eq!(lin.px(5.0), 50.0);
        let log = Axis { lo: 1024.0, hi: 4096.0, from: 0.0, to: 200.0, log: true };
        assert_eq!(log.px(2048.0), 100.0);
        let flat = Axis { lo: 3.0, hi: 3.0, from: 0.0, to: 10.0, log: false };
        assert!(flat.px(3.0).is_finite());
    }

    #[test]
    fn markers_only_at_ends_and_bends() {
        let straight_then_up = [(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (3.0, 2.0), (4.0, 2.0), (5.0, 9.0)];
        assert_eq!(bends(&straight_then_up), vec![true, false, true, false, true, true]);
        assert_eq!(bends(&[(0.0, 0.0)]), vec![true]);
        assert_eq!(bends(&[(0.0, 0.0), (0.0, 0.0), (1.0, 1.0)]), vec![true, false, true]);
    }

    #[test]
    fn token_labels() {
        assert_eq!(tokens(512.0), "512");
        assert_eq!(tokens(8192.0), "8K");
        assert_eq!(tokens(131_072.0), "128K");
        assert_eq!(tokens(1_048_576.0), "1M");
        assert_eq!(tokens(3000.0), "3,000");
    }
}
