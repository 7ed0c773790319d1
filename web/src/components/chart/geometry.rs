//! Where a line chart's parts go: axes, round ticks, the limit line and its
//! label, the marks and theirs, the markers at ends and bends, and the
//! screen-reader table. Plain Rust, so it is tested natively; the component
//! only places what this returns.

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

pub const VIEW_BOX: &str = "0 0 640 280";
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

/// SVG geometry, one decimal.
pub fn px(v: f64) -> String {
    format!("{v:.1}")
}

/// A line segment, coordinates ready for the SVG.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    pub x1: f64,
    pub y1: f64,
    pub x2: f64,
    pub y2: f64,
}

fn rule(x1: f64, y1: f64, x2: f64, y2: f64) -> Rule {
    Rule { x1, y1, x2, y2 }
}

/// A label and where it stands.
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    pub x: f64,
    pub y: f64,
    pub anchor: &'static str,
    pub text: String,
}

fn label(x: f64, y: f64, anchor: &'static str, text: &str) -> Label {
    Label { x, y, anchor, text: text.to_string() }
}

/// A line with its label (a grid line and its tick, the limit, a mark).
pub type Labelled = (Rule, Label);

/// A marker at an end or bend, with its tooltip.
#[derive(Clone, Debug, PartialEq)]
pub struct Dot {
    pub cx: f64,
    pub cy: f64,
    pub tip: String,
}

/// One series as drawn: its class, its polyline and its markers.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub name: String,
    pub class: &'static str,
    pub points: String,
    pub dots: Vec<Dot>,
}

/// The chart's numbers for screen readers: a row per kept x value, then the
/// limit's and the marks' labels.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub caption: String,
    pub head: Vec<String>,
    pub rows: Vec<(String, Vec<String>)>,
    pub notes: Vec<String>,
}

/// Everything the component draws, in drawing order.
#[derive(Clone, Debug, PartialEq)]
pub struct Drawing {
    pub title: String,
    pub grid: Vec<Labelled>,
    pub axes: [Rule; 2],
    pub x_ticks: Vec<Labelled>,
    pub limit: Option<Labelled>,
    pub marks: Vec<Labelled>,
    pub lines: Vec<Line>,
    pub x_label: Label,
    pub y_label: Label,
    /// The rotation that stands the y label up along its axis.
    pub y_turn: String,
    /// The series' names and classes, when there is more than one.
    pub legend: Vec<(String, &'static str)>,
    pub table: Table,
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

/// Lays the chart out on its 640 × 280 view box.
pub fn layout(c: &Chart) -> Drawing {
    let (x_lo, x_hi, y_max) = bounds(c);
    let yt = ticks(y_max * 1.05);
    let y_hi = yt.last().copied().unwrap_or(1.0);
    let x = Axis { lo: x_lo, hi: x_hi, from: LEFT, to: W - RIGHT, log: c.log_x };
    let y = Axis { lo: 0.0, hi: y_hi, from: H - BOTTOM, to: TOP, log: false };
    let (bottom, right) = (H - BOTTOM, W - RIGHT);
    let grid = yt
        .into_iter()
        .map(|v| {
            let py = y.px(v);
            (rule(LEFT, py, right, py), label(LEFT - 6.0, py + 4.0, "end", &present::amount(v)))
        })
        .collect();
    let x_ticks = x_tick_values(c, x_hi)
        .into_iter()
        .map(|v| {
            let px = x.px(v);
            (rule(px, bottom, px, bottom + 4.0), label(px, bottom + 16.0, "middle", &(c.x_fmt)(v)))
        })
        .collect();
    let limit = c.limit.as_ref().map(|(v, text)| {
        let py = y.px(*v);
        (rule(LEFT, py, right, py), label(right - 4.0, py - 5.0, "end", text))
    });
    let marks = c.marks.iter().map(|(v, text)| mark(x.px(*v), text)).collect();
    let mid_y = (TOP + bottom) / 2.0;
    Drawing {
        title: c.title.clone(),
        grid,
        axes: [rule(LEFT, bottom, right, bottom), rule(LEFT, TOP, LEFT, bottom)],
        x_ticks,
        limit,
        marks,
        lines: c.series.iter().map(|sr| draw_series(c, sr, x, y)).collect(),
        x_label: label((LEFT + right) / 2.0, H - 6.0, "middle", &c.x_label),
        y_label: label(14.0, mid_y, "middle", &c.y_label),
        y_turn: format!("rotate(-90 14 {mid_y:.1})"),
        legend: if c.series.len() > 1 {
            c.series.iter().map(|sr| (sr.name.clone(), sr.class)).collect()
        } else {
            Vec::new()
        },
        table: table(c),
    }
}

/// A log axis is labelled at the first series' own x values, thinned; a
/// linear one at round ticks inside the data.
fn x_tick_values(c: &Chart, x_hi: f64) -> Vec<f64> {
    if c.log_x {
        thin(c.series.first().map(|s| s.points.iter().map(|p| p.0).collect()).unwrap_or_default())
    } else {
        ticks(x_hi).into_iter().filter(|t| *t <= x_hi).collect()
    }
}

/// A vertical mark at pixel `px`. One in the plot's right half is labelled
/// to its left and at the foot, so the label is never cut at the chart's
/// edge nor drawn over the limit's label in the top right corner.
fn mark(px: f64, text: &str) -> Labelled {
    let (bottom, right) = (H - BOTTOM, W - RIGHT);
    let at = if px > (LEFT + right) / 2.0 {
        label(px - 4.0, bottom - 6.0, "end", text)
    } else {
        label(px + 4.0, TOP + 10.0, "start", text)
    };
    (rule(px, TOP, px, bottom), at)
}

fn draw_series(c: &Chart, sr: &Series, x: Axis, y: Axis) -> Line {
    let px: Vec<(f64, f64)> = sr.points.iter().map(|&(a, b)| (x.px(a), y.px(b))).collect();
    let points: Vec<String> = px.iter().map(|&(a, b)| format!("{},{}", self::px(a), self::px(b))).collect();
    let dots = sr
        .points
        .iter()
        .zip(&px)
        .zip(bends(&px))
        .filter(|(_, bend)| *bend)
        .map(|((&(a, b), &(cx, cy)), _)| Dot {
            cx,
            cy,
            tip: format!("{}: {}, {}", sr.name, (c.x_fmt)(a), present::amount(b)),
        })
        .collect();
    Line { name: sr.name.clone(), class: sr.class, points: points.join(" "), dots }
}

/// Whether each point is an end or a bend: more than a quarter pixel off the
/// line through its neighbours. Cost series are straight between a few knots
/// but sampled on a fine grid; a marker on every sample would add hundreds of
/// elements to redraw on each edit and no information.
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
fn table(c: &Chart) -> Table {
    let xs: Vec<f64> = c.series.first().map(|sr| sr.points.iter().map(|p| p.0).collect()).unwrap_or_default();
    // The series share their x values. A long table keeps the rows where
    // some series bends: the rest lie on straight lines between them.
    let bent: Vec<Vec<bool>> = c.series.iter().map(|sr| bends(&sr.points)).collect();
    let kept = |i: usize| xs.len() <= 16 || bent.iter().any(|b| b.get(i).copied().unwrap_or(true));
    let rows = xs
        .iter()
        .enumerate()
        .filter(|&(i, _)| kept(i))
        .map(|(i, &xv)| {
            let cells = c
                .series
                .iter()
                .map(|sr| sr.points.get(i).map(|p| present::amount(p.1)).unwrap_or_default())
                .collect();
            ((c.x_fmt)(xv), cells)
        })
        .collect();
    let head = std::iter::once(c.x_label.clone()).chain(c.series.iter().map(|sr| sr.name.clone())).collect();
    let notes = c.limit.iter().map(|l| l.1.clone()).chain(c.marks.iter().map(|m| m.1.clone())).collect();
    Table { caption: c.title.clone(), head, rows, notes }
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

    #[test]
    fn a_crowded_log_axis_keeps_every_other_label() {
        let v: Vec<f64> = (0..12).map(|i| f64::from(1 << i)).collect();
        assert_eq!(thin(v.clone()).len(), 6);
        assert_eq!(thin(v[..8].to_vec()).len(), 8);
    }

    fn sample() -> Chart {
        Chart {
            title: "Memory".into(),
            x_label: "Context".into(),
            y_label: "GB".into(),
            log_x: false,
            series: vec![
                Series { name: "a".into(), class: "s0", points: vec![(0.0, 1.0), (10.0, 2.0), (20.0, 3.0)] },
                Series { name: "b".into(), class: "s1", points: vec![(0.0, 2.0), (10.0, 2.0), (20.0, 8.0)] },
            ],
            limit: Some((6.0, "usable".into())),
            marks: vec![(2.0, "left".into()), (18.0, "right".into())],
            x_fmt: hours,
        }
    }

    #[test]
    fn labels_stay_inside_the_plot() {
        let d = layout(&sample());
        let (left, right) = (&d.marks[0].1, &d.marks[1].1);
        assert_eq!((left.anchor, left.y), ("start", 26.0), "a left mark is labelled at the top");
        assert_eq!((right.anchor, right.y), ("end", 230.0), "a right mark at the foot");
        let limit = &d.limit.as_ref().expect("a limit").1;
        assert_eq!((limit.anchor, limit.x, limit.text.as_str()), ("end", 620.0, "usable"));
        assert_eq!(d.y_turn, "rotate(-90 14 126.0)");
    }

    #[test]
    fn the_drawing_holds_the_numbers_its_legend_and_table() {
        let d = layout(&sample());
        assert_eq!(d.grid.first().map(|g| g.1.text.as_str()), Some("0"));
        assert_eq!(d.legend, vec![("a".to_string(), "s0"), ("b".to_string(), "s1")]);
        assert_eq!(d.lines[0].dots.len(), 2, "a straight series has markers at its ends only");
        assert_eq!(d.lines[1].dots.len(), 3);
        assert!(d.lines[1].dots[1].tip.starts_with("b: 10"), "{:?}", d.lines[1].dots[1]);
        assert_eq!(d.table.head, vec!["Context", "a", "b"]);
        assert_eq!(d.table.rows.len(), 3);
        assert_eq!(d.table.notes, vec!["usable", "left", "right"]);
        let single = Chart { series: vec![sample().series.remove(0)], ..sample() };
        assert!(layout(&single).legend.is_empty(), "one series needs no legend");
    }
}
