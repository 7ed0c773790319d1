//! Hand-written SVG line charts: labelled axes, a horizontal limit, vertical
//! marks, a <title> tooltip at every end and bend, a legend when there are
//! several series, and a visually hidden table with the same numbers for
//! screen readers. `geometry` lays the chart out; this only places it.

mod geometry;

pub use geometry::{hours, tokens, Chart, Series};

use geometry::{layout, Drawing, Labelled, VIEW_BOX};

use geometry::px;

use leptos::prelude::*;

use geometry::{Line, Table};

/// A line chart of `chart`, redrawn when it changes.
#[component]
pub fn LineChart(#[prop(into)] chart: Signal<Chart>) -> impl IntoView {
    move || chart.with(|c| figure(layout(c)))
}

fn figure(d: Drawing) -> impl IntoView {
    let legend = (!d.legend.is_empty()).then(|| {
        let keys = d.legend.into_iter().map(|(name, class)| {
            view! { <li><span class=format!("key {class}") aria-hidden="true"></span>{name}</li> }
        });
        view! { <ul class="chart-legend">{keys.collect_view()}</ul> }
    });
    let grid = d.grid.into_iter().map(|g| labelled("grid", "tick", g)).collect_view();
    let x_ticks = d.x_ticks.into_iter().map(|g| labelled("axis", "tick", g)).collect_view();
    let limit = d.limit.map(|g| labelled("limit", "limit-label", g));
    let marks = d.marks.into_iter().map(|g| labelled("mark", "mark-label", g)).collect_view();
    let [x_axis, y_axis] = d.axes;
    let (x, y) = (d.x_label, d.y_label);
    view! {
        <figure class="chart">
            <svg viewBox=VIEW_BOX role="img" aria-label=d.title>
                {grid}
                <line class="axis" x1=px(x_axis.x1) y1=px(x_axis.y1) x2=px(x_axis.x2) y2=px(x_axis.y2)></line>
                <line class="axis" x1=px(y_axis.x1) y1=px(y_axis.y1) x2=px(y_axis.x2) y2=px(y_axis.y2)></line>
                {x_ticks}
                {limit}
                {marks}
                {d.lines.into_iter().map(series).collect_view()}
                <text x=px(x.x) y=px(x.y) text-anchor=x.anchor class="axis-label">{x.text}</text>
                <text x=px(y.x) y=px(y.y) text-anchor=y.anchor class="axis-label" transform=d.y_turn>{y.text}</text>
            </svg>
            {legend}
            {hidden_table(d.table)}
        </figure>
    }
}

/// A line and its label, each with its class.
fn labelled(class: &'static str, label_class: &'static str, (r, l): Labelled) -> impl IntoView {
    view! {
        <line class=class x1=px(r.x1) y1=px(r.y1) x2=px(r.x2) y2=px(r.y2)></line>
        <text x=px(l.x) y=px(l.y) text-anchor=l.anchor class=label_class>{l.text}</text>
    }
}

fn series(line: Line) -> impl IntoView {
    let dots = line.dots.into_iter().map(|d| {
        view! { <circle cx=px(d.cx) cy=px(d.cy) r="3"><title>{d.tip}</title></circle> }
    });
    view! {
        <g class=format!("series {}", line.class)>
            <polyline points=line.points></polyline>
            {dots.collect_view()}
        </g>
    }
}

/// The chart's numbers as a table, for screen readers.
fn hidden_table(t: Table) -> impl IntoView {
    let head = t.head.into_iter().map(|h| view! { <th scope="col">{h}</th> }).collect_view();
    let rows = t.rows.into_iter().map(|(x, cells)| {
        let cells = cells.into_iter().map(|c| view! { <td>{c}</td> }).collect_view();
        view! { <tr><th scope="row">{x}</th>{cells}</tr> }
    });
    let notes = t.notes.into_iter().map(|n| view! { <li>{n}</li> }).collect_view();
    view! {
        <div class="visually-hidden">
            <table>
                <caption>{t.caption}</caption>
                <thead><tr>{head}</tr></thead>
                <tbody>{rows.collect_view()}</tbody>
            </table>
            <ul>{notes}</ul>
        </div>
    }
}
