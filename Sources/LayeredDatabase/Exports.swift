@_exported import SQLiteCore
