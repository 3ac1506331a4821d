// Charts module
