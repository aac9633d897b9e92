git init -q repo
