import Hummingbird
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle

/// A ready-made sync server: a Hummingbird application with the sync routes, its database
/// connection pools as services, and the server's tables migrated before it listens.
public enum SyncServerApplication {
    /// The application listening on `host`:`port` (0: a free port, told to `onServerRunning`)
    /// over `databases` (one URL, or several to spread spaces across them), with pull-only
    /// requests read from `replicas` (none, or a streaming replica of each database, in order).
    public static func make(
        configuration: SyncServerConfiguration, databases: [PostgresClient.Configuration],
        replicas: [PostgresClient.Configuration] = [], host: String, port: Int,
        connectionsPerDatabase: Int = 20, logger: Logger,
        onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        func pool(_ database: PostgresClient.Configuration) -> PostgresClient {
            var database = database
            database.options.maximumConnections = connectionsPerDatabase
            return PostgresClient(configuration: database, backgroundLogger: logger)
        }
        let clients = databases.map(pool)
        let replicaClients = replicas.map(pool)
        let service = SyncService(
            configuration: configuration, clients: clients, replicas: replicaClients, logger: logger)
        let router = Router()
        SyncRoutes.add(to: router, service: service)
        var application = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "shipyard-sync-server"),
            services: clients + replicaClients,
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
        application.beforeServerStarts { try await service.migrate() }
        return application
    }
}
