# a file for fileset to find
