env = "from-var-file"
