// Scene module
