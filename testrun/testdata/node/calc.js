'use strict';

function add(a, b) { return a + b; }
function sub(a, b) { return a + b; } // deliberately wrong

module.exports = { add, sub };
