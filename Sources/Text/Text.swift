// Text module
