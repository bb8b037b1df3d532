//! The worker's view of the host, through wasm-bindgen: JSON text in and out, and the two
//! functions the worker gives the core (`web/worker.js` defines them on its global scope).

use std::collections::BTreeMap;

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::host::WebHost;
use crate::store::WebStore;

#[wasm_bindgen]
extern "C" {
    /// Passes a document on to the page, `None` to remove it.
    #[wasm_bindgen(js_name = wuziForward)]
    fn forward(name: &str, text: Option<String>);

    /// Sends `message` (JSON) on the page's channel `channel`.
    #[wasm_bindgen(js_name = wuziSend)]
    fn send(channel: u32, message: &str);

    /// The console, for a panic's message before the instance traps.
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(text: &str);
}

/// The core in the worker.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Core {
    host: WebHost,
}

#[wasm_bindgen]
impl Core {
    /// The core over the documents `docs` (JSON: name → text) the page found in its storage,
    /// or a core that saves nothing when the page has none (`docs` is `null`).
    #[wasm_bindgen(constructor)]
    #[must_use]
    pub fn new(docs: &str) -> Core {
        std::panic::set_hook(Box::new(|info| console_error(&info.to_string())));
        let host = match serde_json::from_str::<Option<BTreeMap<String, String>>>(docs) {
            Ok(Some(docs)) => WebHost::new(WebStore::new(
                docs,
                Box::new(|name, text| forward(name, text.map(str::to_string))),
            )),
            _ => WebHost::unsaved(),
        };
        Core { host }
    }

    /// Runs the command `name` with `args` (JSON): `{"ok": reply}` or `{"err": rejection}`.
    #[must_use]
    pub fn call(&mut self, name: &str, args: &str) -> String {
        let args: Value = serde_json::from_str(args).unwrap_or(Value::Null);
        let out = match self
            .host
            .call(name, &args, &mut |c, m| send(c, &m.to_string()))
        {
            Ok(reply) => json!({ "ok": reply }),
            Err(rejection) => json!({ "err": rejection }),
        };
        out.to_string()
    }

    /// Runs the next analysis round; whether another is to come.
    pub fn step(&mut self) -> bool {
        self.host.step(&mut |c, m| send(c, &m.to_string()))
    }
}
