// Timelines module
