env = "from-auto"
