//! The fit table's filter controls, built as plain data for its patched
//! block, until that block is a component too.

use crate::dom::{h, El};

/// An `<option>`, selected or not.
pub fn option(value: &str, label: &str, selected: bool) -> El {
    h("option").a("value", value).t(label).flag("selected", selected)
}

/// A labelled control in the column's field layout.
pub fn labelled(id: &str, label: &str, control: El) -> El {
    h("div").c("field").k(h("label").a("for", id).t(label)).k(h("div").c("control").k(control))
}
