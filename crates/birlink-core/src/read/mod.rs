//! Reading a link set: what is read and what it makes ([`input`]), files decoded and
//! classified ([`load`], several at once when asked; an indented one compacted as it arrives, [`compact`]), each document parsed
//! and lowered into the model ([`json`]), the netlist ([`netlist`]); a compiler work
//! directory's files told apart by name ([`workdir`]) and its cores' tensor maps read
//! ([`tensor_map`]); the kernel line behind an instruction ([`kernel_line`]).

pub mod compact;
pub mod input;
pub mod json;
pub mod kernel_line;
pub mod load;
pub mod netlist;
pub mod tensor_map;
pub mod workdir;
