//! The page: mounts the inspector.

fn main() {
    // A panic is a bug; say so in the console rather than dying silently.
    console_error_panic_hook::set_once();
    birlink_web::app::start();
}
