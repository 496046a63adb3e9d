//! The explorer's page: its files embedded in the binary (`include_str!` of `src/serve/page/`), served at
//! fixed paths with their content types; no build step, nothing fetched from the network by the page.

use super::http::Response;

/// The page's files: path, content type, contents.
const ASSETS: &[(&str, &str, &str)] = &[
    ("/", "text/html; charset=utf-8", include_str!("page/index.html")),
    ("/style.css", "text/css; charset=utf-8", include_str!("page/style.css")),
    ("/app.js", "text/javascript; charset=utf-8", include_str!("page/app.js")),
    ("/api.js", "text/javascript; charset=utf-8", include_str!("page/api.js")),
    ("/board.js", "text/javascript; charset=utf-8", include_str!("page/board.js")),
    ("/panel.js", "text/javascript; charset=utf-8", include_str!("page/panel.js")),
    ("/pits.js", "text/javascript; charset=utf-8", include_str!("page/pits.js")),
    ("/edges.js", "text/javascript; charset=utf-8", include_str!("page/edges.js")),
    ("/svg.js", "text/javascript; charset=utf-8", include_str!("page/svg.js")),
    ("/chart.js", "text/javascript; charset=utf-8", include_str!("page/chart.js")),
    ("/values.js", "text/javascript; charset=utf-8", include_str!("page/values.js")),
    ("/favicon.svg", "image/svg+xml", include_str!("page/favicon.svg")),
];

/// What the page may load: its own files only (scripts, styles, images; no inline script).
const CONTENT_SECURITY_POLICY: &str =
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The file at `path`, if the page has one: its content type and contents.
pub fn asset(path: &str) -> Option<(&'static str, &'static str)> {
    let path = if path == "/index.html" { "/" } else { path };
    ASSETS.iter().find(|(known, _, _)| *known == path).map(|&(_, content_type, contents)| (content_type, contents))
}

/// The response serving the file at `path` (404 if the page has none).
pub fn response(path: &str) -> Response {
    match asset(path) {
        Some((content_type, contents)) => Response {
            status: 200,
            content_type,
            body: contents.as_bytes().to_vec(),
            headers: vec![
                ("Content-Security-Policy", CONTENT_SECURITY_POLICY.into()),
                ("Cache-Control", "no-cache".into()),
            ],
        },
        None => Response::error(&super::shapes::ApiError::new(404, "route", "no such file")),
    }
}
