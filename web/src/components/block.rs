//! A result block: a section titled by its heading, which `id` names.

use leptos::prelude::*;
use leptos::text_prop::TextProp;

#[component]
pub fn Block(id: &'static str, #[prop(into)] title: TextProp, children: Children) -> impl IntoView {
    view! {
        <section class="block" aria-labelledby=id>
            <h3 id=id>{move || title.get()}</h3>
            {children()}
        </section>
    }
}
