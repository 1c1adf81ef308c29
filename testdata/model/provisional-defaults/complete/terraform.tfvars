token = "from-the-ci-secret"
