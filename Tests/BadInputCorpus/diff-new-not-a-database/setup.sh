sqlite3 old.sqlite "CREATE TABLE food(x); INSERT INTO food VALUES (1);"
