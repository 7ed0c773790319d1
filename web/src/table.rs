//! One table builder for every table on the page: plain rows of text cells,
//! optional sorting by column, optional row selection. Callers turn core
//! results into rows; sorting and filtering are plain Rust, tested natively.

use crate::dom::{h, El};

/// A column: its header and whether it sorts (numerically, by the row's key).
pub struct Col {
    pub label: String,
    pub sortable: bool,
    /// Right-aligned numbers.
    pub num: bool,
}

/// One piece of a cell: text with a CSS class ("" for plain).
pub type Part = (String, &'static str);

pub struct Row {
    /// Stable id, for selection.
    pub key: String,
    pub class: &'static str,
    pub cells: Vec<Vec<Part>>,
    /// Sort key per column (ignored for unsortable ones); NaN sorts last.
    pub keys: Vec<f64>,
}

/// Active sort: column index and direction; None keeps the given order.
pub type Sort = Option<(usize, bool)>;

/// Rows in the order `sort` asks for; ties and NaN keep the given order.
pub fn sorted(mut rows: Vec<Row>, sort: Sort) -> Vec<Row> {
    if let Some((col, asc)) = sort {
        let key = |r: &Row| r.keys.get(col).copied().unwrap_or(f64::NAN);
        rows.sort_by(|a, b| {
            let (x, y) = (key(a), key(b));
            match (x.is_nan(), y.is_nan()) {
                (true, true) => std::cmp::Ordering::Equal,
                (true, false) => std::cmp::Ordering::Greater,
                (false, true) => std::cmp::Ordering::Less,
                _ if asc => x.total_cmp(&y),
                _ => y.total_cmp(&x),
            }
        });
    }
    rows
}

/// The next sort after clicking column `col`: ascending, then descending, then off.
pub fn next_sort(current: Sort, col: usize) -> Sort {
    match current {
        Some((c, true)) if c == col => Some((col, false)),
        Some((c, false)) if c == col => None,
        _ => Some((col, true)),
    }
}

/// Builds the table. Sortable headers carry `data-act="sort"`, row pickers
/// `data-act="pick"`; the host's click handler turns them into state.
pub fn table(
    testid: &str,
    caption: &str,
    cols: Vec<Col>,
    rows: Vec<Row>,
    sort: Sort,
    pick: Option<&str>,
) -> El {
    let head = cols.into_iter().enumerate().map(|(i, c)| {
        let th = h("th").a("scope", "col").c(if c.num { "num" } else { "" });
        if !c.sortable {
            return th.t(&c.label);
        }
        let aria = match sort {
            Some((col, true)) if col == i => "ascending",
            Some((col, false)) if col == i => "descending",
            _ => "none",
        };
        let button =
            h("button").a("type", "button").c("sort").a("data-act", "sort").a("data-arg", &i.to_string());
        th.a("aria-sort", aria).k(button.t(&c.label))
    });
    let body = sorted(rows, sort).into_iter().map(|r| {
        let selected = pick == Some(r.key.as_str());
        let mut class = r.class.to_string();
        if selected {
            class.push_str(" selected");
        }
        let cells = r.cells.into_iter().enumerate().map(|(i, parts)| {
            let spans = parts.into_iter().map(|(text, class)| h("span").c(class).t(&text));
            match (i, pick.is_some()) {
                (0, true) => {
                    let button = h("button")
                        .a("type", "button")
                        .c("pick")
                        .a("data-act", "pick")
                        .a("data-arg", &r.key)
                        .a("aria-pressed", if selected { "true" } else { "false" })
                        .ks(spans);
                    h("th").a("scope", "row").k(button)
                }
                (0, false) => h("th").a("scope", "row").ks(spans),
                _ => h("td").ks(spans),
            }
        });
        h("tr").c(class.trim()).ks(cells)
    });
    let table = h("table")
        .a("data-testid", testid)
        .k(h("caption").c("visually-hidden").t(caption))
        .k(h("thead").k(h("tr").ks(head)))
        .k(h("tbody").ks(body));
    h("div").c("table-wrap").a("tabindex", "0").a("role", "region").a("aria-label", caption).k(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(key: &str, k: f64) -> Row {
        Row { key: key.into(), class: "", cells: vec![], keys: vec![0.0, k] }
    }

    fn keys(rows: &[Row]) -> Vec<&str> {
        rows.iter().map(|r| r.key.as_str()).collect()
    }

    #[test]
    fn sorts_both_ways_with_nan_last() {
        let rows = || vec![row("a", 3.0), row("b", f64::NAN), row("c", 1.0), row("d", 2.0)];
        assert_eq!(keys(&sorted(rows(), None)), ["a", "b", "c", "d"]);
        assert_eq!(keys(&sorted(rows(), Some((1, true)))), ["c", "d", "a", "b"]);
        assert_eq!(keys(&sorted(rows(), Some((1, false)))), ["a", "d", "c", "b"]);
    }

    #[test]
    fn header_clicks_cycle() {
        assert_eq!(next_sort(None, 2), Some((2, true)));
        assert_eq!(next_sort(Some((2, true)), 2), Some((2, false)));
        assert_eq!(next_sort(Some((2, false)), 2), None);
        assert_eq!(next_sort(Some((1, false)), 2), Some((2, true)));
    }
}
