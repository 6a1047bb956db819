//! Reading a link set: files classified and decoded ([`input`], several at once when
//! asked), each document parsed and lowered into the model while it streams
//! ([`json`]), the netlist ([`netlist`]); a compiler work directory's files told
//! apart by name ([`workdir`]) and its cores' tensor maps read ([`tensor_map`]); the kernel line behind an
//! instruction ([`source`]).

pub mod compact;
pub mod input;
pub mod json;
pub mod netlist;
pub mod source;
pub mod tensor_map;
pub mod workdir;
