print("chartreel")
