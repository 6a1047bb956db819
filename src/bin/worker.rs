//! The web worker that runs the link pipeline off the page's thread.

use gloo_worker::Registrable;

fn main() {
    // A panic is a bug; say so in the console rather than dying silently.
    console_error_panic_hook::set_once();
    birlink_web::worker::LinkWorker::registrar().encoding::<birlink_web::protocol::Codec>().register();
}
