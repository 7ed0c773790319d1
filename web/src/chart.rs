//! The line chart as a patched-DOM element, for the blocks still drawn by
//! `dom.rs` (the cost table). It places the same layout as the `LineChart`
//! component; it goes once nothing calls it.

pub use crate::components::chart::{hours, Chart, Series};
use crate::components::chart::{layout, Drawing, Labelled, VIEW_BOX};
use crate::dom::{h, s, El};

pub fn chart(c: &Chart) -> El {
    let d: Drawing = layout(c);
    let pair = |class: &str, label_class: &str, (r, l): Labelled| {
        [
            s("line").c(class).n("x1", r.x1).n("y1", r.y1).n("x2", r.x2).n("y2", r.y2),
            s("text").n("x", l.x).n("y", l.y).a("text-anchor", l.anchor).c(label_class).t(&l.text),
        ]
    };
    let mut svg = s("svg").a("viewBox", VIEW_BOX).a("role", "img").a("aria-label", &d.title);
    svg = svg.ks(d.grid.into_iter().flat_map(|g| pair("grid", "tick", g)));
    for r in d.axes {
        svg = svg.k(s("line").c("axis").n("x1", r.x1).n("y1", r.y1).n("x2", r.x2).n("y2", r.y2));
    }
    svg = svg
        .ks(d.x_ticks.into_iter().flat_map(|g| pair("axis", "tick", g)))
        .ks(d.limit.into_iter().flat_map(|g| pair("limit", "limit-label", g)))
        .ks(d.marks.into_iter().flat_map(|g| pair("mark", "mark-label", g)));
    for line in d.lines {
        let dots = line
            .dots
            .iter()
            .map(|p| s("circle").n("cx", p.cx).n("cy", p.cy).a("r", "3").k(s("title").t(&p.tip)));
        svg = svg.k(s("g")
            .c(&format!("series {}", line.class))
            .k(s("polyline").a("points", &line.points))
            .ks(dots));
    }
    let (x, y) = (d.x_label, d.y_label);
    svg = svg.k(s("text").n("x", x.x).n("y", x.y).a("text-anchor", x.anchor).c("axis-label").t(&x.text)).k(
        s("text")
            .n("x", y.x)
            .n("y", y.y)
            .a("text-anchor", y.anchor)
            .c("axis-label")
            .a("transform", &d.y_turn)
            .t(&y.text),
    );
    let legend = (!d.legend.is_empty()).then(|| {
        h("ul").c("chart-legend").ks(d.legend.iter().map(|(name, class)| {
            h("li").k(h("span").c(&format!("key {class}")).a("aria-hidden", "true")).t(name)
        }))
    });
    let t = d.table;
    let rows = t
        .rows
        .iter()
        .map(|(x, cells)| h("tr").k(h("th").a("scope", "row").t(x)).ks(cells.iter().map(|c| h("td").t(c))));
    let table = h("table")
        .k(h("caption").t(&t.caption))
        .k(h("thead").k(h("tr").ks(t.head.iter().map(|c| h("th").a("scope", "col").t(c)))))
        .k(h("tbody").ks(rows));
    let hidden = h("div").c("visually-hidden").k(table).k(h("ul").ks(t.notes.iter().map(|n| h("li").t(n))));
    h("figure").c("chart").k(svg).opt(legend).k(hidden)
}
