public import Foundation
public import NarrationCore

extension NarrationLibrary {
    /// The store a configured destination names: the one place where a folder and object storage
    /// part ways. Close it (`close()`) when done.
    /// - Parameters:
    ///   - checkingFolder: whether a folder must exist now (see `prepare`); false for a store that
    ///     only looks at what an earlier delivery left, where a missing file says more.
    ///   - connectWait: seconds each object storage request tries to connect.
    /// - Throws: `fileSystem` for a missing folder; `credentials`.
    public static func store(
        for destination: Destination, environment: [String: String] = ProcessInfo.processInfo.environment, checkingFolder: Bool = true,
        connectWait: Double = 10
    ) throws(NarrationError) -> any DeliveryStore {
        switch destination {
        case .folder(let path):
            let folder = URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL
            if checkingFolder { _ = try prepare(destination, environment: environment) }
            return FolderDeliveryStore(root: folder)
        case .s3(let storage):
            let credentials = try CredentialSource.credentials(for: storage, environment: environment)
            return ObjectStorageDeliveryStore(StorageConnection(destination: storage, credentials: credentials, connectWait: connectWait))
        }
    }
}

extension DeliveryStore {
    /// Runs `work` (which uses the store) and closes the store after, whatever `work` did.
    func closing<T>(after work: () async throws(NarrationError) -> T) async throws(NarrationError) -> T {
        let result: Result<T, NarrationError>
        do throws(NarrationError) {
            result = .success(try await work())
        } catch {
            result = .failure(error)
        }
        await close()
        return try result.get()
    }
}
