//! A labelled control in the page's field layout (the inputs column, the
//! fit table's filters).

use leptos::prelude::*;

use crate::i18n::{t, Lang, K};

#[component]
pub fn Labelled(id: &'static str, label: K, lang: Lang, children: Children) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{t(lang, label)}</label>
            <div class="control">{children()}</div>
        </div>
    }
}
