sqlite3 bundle.sqlite "CREATE TABLE food(x); INSERT INTO food VALUES (1);"
