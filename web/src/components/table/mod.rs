//! One table for every table on the page: rows of text cells keyed by a
//! stable id, optional sorting by column, optional row picking. Callers turn
//! core results into rows; sorting is plain Rust, tested natively. A row
//! keeps its DOM across edits: only the cells whose text changed are redrawn.

use std::cmp::Ordering;

use leptos::prelude::*;

/// A column: its header and whether it sorts (numerically, by the row's key).
#[derive(Clone, Debug, PartialEq)]
pub struct Col {
    pub label: &'static str,
    pub sortable: bool,
    /// Right-aligned numbers.
    pub num: bool,
}

/// One piece of a cell: text with a CSS class ("" for plain).
pub type Part = (String, &'static str);

#[derive(Clone, Debug)]
pub struct Row {
    /// Stable id: keys the row's DOM and names it when picked.
    pub key: String,
    pub class: &'static str,
    pub cells: Vec<Vec<Part>>,
    /// Sort key per column (ignored for unsortable ones); NaN sorts last.
    pub keys: Vec<f64>,
}

/// Equal when shown and sorted the same: NaN sort keys equal each other, so
/// a row with an unsortable column is not "changed" on every edit.
impl PartialEq for Row {
    fn eq(&self, other: &Row) -> bool {
        let bits = |r: &Row| r.keys.iter().map(|k| k.to_bits()).collect::<Vec<_>>();
        self.key == other.key
            && self.class == other.class
            && self.cells == other.cells
            && bits(self) == bits(other)
    }
}

/// Active sort: column index and ascending; None keeps the given order.
pub type Sort = Option<(usize, bool)>;

/// The rows' keys in the order `sort` asks for; ties and NaN keep the given order.
pub fn order(rows: &[Row], sort: Sort) -> Vec<String> {
    let mut rows: Vec<&Row> = rows.iter().collect();
    if let Some((col, asc)) = sort {
        let key = |r: &Row| r.keys.get(col).copied().unwrap_or(f64::NAN);
        rows.sort_by(|a, b| {
            let (x, y) = (key(a), key(b));
            match (x.is_nan(), y.is_nan()) {
                (true, true) => Ordering::Equal,
                (true, false) => Ordering::Greater,
                (false, true) => Ordering::Less,
                _ if asc => x.total_cmp(&y),
                _ => y.total_cmp(&x),
            }
        });
    }
    rows.into_iter().map(|r| r.key.clone()).collect()
}

/// The next sort after clicking column `col`: ascending, then descending, then off.
pub fn next_sort(current: Sort, col: usize) -> Sort {
    match current {
        Some((c, true)) if c == col => Some((col, false)),
        Some((c, false)) if c == col => None,
        _ => Some((col, true)),
    }
}

/// A sortable header's `aria-sort` under `sort`.
pub fn aria_sort(sort: Sort, col: usize) -> &'static str {
    match sort {
        Some((c, true)) if c == col => "ascending",
        Some((c, false)) if c == col => "descending",
        _ => "none",
    }
}

/// The row's classes, with "selected" when it is the picked one.
pub fn row_class(class: &str, selected: bool) -> String {
    let mut class = class.to_string();
    if selected {
        class.push_str(" selected");
    }
    class.trim().to_string()
}

/// Row picking: the key shown as picked, and what a click on a row's first
/// cell does with its key.
#[derive(Clone, Copy)]
pub struct Pick {
    pub picked: Signal<Option<String>>,
    pub on_pick: Callback<String>,
}

#[component]
pub fn DataTable(
    testid: &'static str,
    caption: &'static str,
    #[prop(into)] cols: Signal<Vec<Col>>,
    rows: Memo<Vec<Row>>,
    #[prop(optional)] pick: Option<Pick>,
) -> impl IntoView {
    let sort = RwSignal::new(None::<(usize, bool)>);
    let keys = Memo::new(move |_| rows.with(|rows| order(rows, sort.get())));
    view! {
        <div class="table-wrap" tabindex="0" role="region" aria-label=caption>
            <table data-testid=testid>
                <caption class="visually-hidden">{caption}</caption>
                <thead>
                    <tr>{move || header(cols.get(), sort)}</tr>
                </thead>
                <tbody>
                    <For each=move || keys.get() key=|k| k.clone() let:key>
                        <TableRow key rows pick/>
                    </For>
                </tbody>
            </table>
        </div>
    }
}

fn header(cols: Vec<Col>, sort: RwSignal<Sort>) -> impl IntoView {
    cols.into_iter()
        .enumerate()
        .map(|(i, c)| {
            let class = c.num.then_some("num");
            if !c.sortable {
                return view! { <th scope="col" class=class>{c.label}</th> }.into_any();
            }
            let click = move |_| sort.update(|s| *s = next_sort(*s, i));
            view! {
                <th scope="col" class=class aria-sort=move || aria_sort(sort.get(), i)>
                    <button type="button" class="sort" on:click=click>{c.label}</button>
                </th>
            }
            .into_any()
        })
        .collect_view()
}

/// One row, found in `rows` by its key: it stays in place while its key is
/// shown, and each cell follows its own text.
#[component]
fn TableRow(key: String, rows: Memo<Vec<Row>>, pick: Option<Pick>) -> impl IntoView {
    let width = rows.with_untracked(|rows| rows.iter().find(|r| r.key == key).map_or(0, |r| r.cells.len()));
    let row = {
        let key = key.clone();
        Memo::new(move |_| rows.with(|rows| rows.iter().find(|r| r.key == key).cloned()))
    };
    let selected = {
        let key = key.clone();
        Memo::new(move |_| pick.is_some_and(|p| p.picked.with(|k| k.as_deref() == Some(key.as_str()))))
    };
    let class = move || {
        row.with(|r| r.as_ref().map(|r| row_class(r.class, selected.get()))).filter(|c| !c.is_empty())
    };
    let cells = (0..width)
        .map(|i| {
            let parts = Memo::new(move |_| row.with(|r| r.as_ref().and_then(|r| r.cells.get(i).cloned())).unwrap_or_default());
            let spans = move || parts.get().into_iter().map(|(text, class)| {
                view! { <span class=(!class.is_empty()).then_some(class)>{text}</span> }
            }).collect_view();
            match (i, pick) {
                (0, Some(p)) => {
                    let key = key.clone();
                    let pressed = move || if selected.get() { "true" } else { "false" };
                    view! {
                        <th scope="row">
                            <button type="button" class="pick" aria-pressed=pressed on:click=move |_| p.on_pick.run(key.clone())>
                                {spans}
                            </button>
                        </th>
                    }
                    .into_any()
                }
                (0, None) => view! { <th scope="row">{spans}</th> }.into_any(),
                _ => view! { <td>{spans}</td> }.into_any(),
            }
        })
        .collect_view();
    view! { <tr class=class>{cells}</tr> }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(key: &str, k: f64) -> Row {
        Row { key: key.into(), class: "", cells: vec![], keys: vec![0.0, k] }
    }

    #[test]
    fn sorts_both_ways_with_nan_last() {
        let rows = [row("a", 3.0), row("b", f64::NAN), row("c", 1.0), row("d", 2.0)];
        assert_eq!(order(&rows, None), ["a", "b", "c", "d"]);
        assert_eq!(order(&rows, Some((1, true))), ["c", "d", "a", "b"]);
        assert_eq!(order(&rows, Some((1, false))), ["a", "d", "c", "b"]);
    }

    #[test]
    fn header_clicks_cycle() {
        assert_eq!(next_sort(None, 2), Some((2, true)));
        assert_eq!(next_sort(Some((2, true)), 2), Some((2, false)));
        assert_eq!(next_sort(Some((2, false)), 2), None);
        assert_eq!(next_sort(Some((1, false)), 2), Some((2, true)));
    }

    #[test]
    fn aria_sort_names_the_sorted_column_only() {
        assert_eq!(aria_sort(Some((1, true)), 1), "ascending");
        assert_eq!(aria_sort(Some((1, false)), 1), "descending");
        assert_eq!(aria_sort(Some((1, false)), 2), "none");
        assert_eq!(aria_sort(None, 1), "none");
    }

    #[test]
    fn rows_with_nan_keys_equal_themselves() {
        assert_eq!(row("a", f64::NAN), row("a", f64::NAN));
        assert_ne!(row("a", 1.0), row("a", 2.0));
    }

    #[test]
    fn a_picked_row_is_selected() {
        assert_eq!(row_class("best", true), "best selected");
        assert_eq!(row_class("", true), "selected");
        assert_eq!(row_class("", false), "");
    }
}
