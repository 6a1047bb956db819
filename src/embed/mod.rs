//! birlink inside another page (embed spec §3–§4): the message protocol ([`protocol`],
//! pure) and the trust rule ([`trust`]). The listener that uses them is
//! `hooks::use_messages`.

pub mod protocol;
pub mod trust;
