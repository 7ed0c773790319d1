//! Files fetched from the page's own server after the first result.

/// The text of `url` (relative to the page), when the server has it.
pub async fn text(url: &str) -> Option<String> {
    let response = gloo_net::http::Request::get(url).send().await.ok()?;
    if !response.ok() {
        return None;
    }
    response.text().await.ok()
}
