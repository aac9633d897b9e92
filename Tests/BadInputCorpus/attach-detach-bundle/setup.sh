sqlite3 bundle.sqlite "CREATE TABLE food(x);"
