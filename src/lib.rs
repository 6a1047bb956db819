//! The browser inspector (issue 3): the link pipeline in a web worker, a yew UI on top.
